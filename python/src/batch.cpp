// Tablebase.probe_many: WDL of many positions in one call, into a numpy int8 array (-1 loss,
// 0 draw, 1 win). The FENs are copied out while the GIL is held; parsing (the canonical form
// first, canonical_fen.hpp) and probing run without it.
#include <pybind11/numpy.h>

#include <cstdint>
#include <optional>

#include "dtb/rules/fen.hpp"
#include "src/bindings.hpp"
#include "src/canonical_fen.hpp"

namespace dtb::python {

namespace {

// The batch as C++ sees it: FEN texts one after another in `text`, or positions already parsed.
struct Batch {
    std::string text;
    std::vector<std::size_t> end;     // end of item i's text in `text`
    std::vector<Position> positions;  // the items given as Positions, in order
    std::vector<std::uint8_t> given;  // 1: item i is the next of `positions`
};

Batch collect(const py::iterable& items, VariantId variant) {
    Batch b;
    // One caster for the batch: it finds Position's type once, then checks each item by pointer.
    py::detail::make_caster<PyPosition> position_caster;
    for (py::handle h : items) {
        if (PyUnicode_Check(h.ptr())) {
            Py_ssize_t size = 0;
            const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
            if (!s) throw py::error_already_set();
            b.text.append(s, static_cast<std::size_t>(size));
            b.given.push_back(0);
        } else if (position_caster.load(h, false) &&
                   py::detail::cast_op<const PyPosition&>(position_caster).variant == variant) {
            b.positions.push_back(py::detail::cast_op<const PyPosition&>(position_caster).position);
            b.given.push_back(1);
        } else {
            b.positions.push_back(position_arg(h, variant));  // raises the error the item calls for
            b.given.push_back(1);
        }
        b.end.push_back(b.text.size());
    }
    return b;
}

// Why item `index` has no value; the loop stops at the first.
struct Failure {
    std::size_t index = 0;
    std::string parse_error;  // a bad FEN
    probe::Result result;     // else the probe's failure
    Position position;
};

template <class R>
std::optional<Failure> probe_all(const probe::Tablebase& tb, const Batch& b, std::int8_t* out,
                                 std::optional<int> unreachable) {
    std::size_t begin = 0;
    std::size_t next_given = 0;
    for (std::size_t i = 0; i < b.given.size(); ++i) {
        Position p;
        if (b.given[i]) {
            p = b.positions[next_given++];
        } else {
            const std::string_view fen = std::string_view(b.text).substr(begin, b.end[i] - begin);
            if (const auto fast = parse_canonical_fen<R>(fen)) {
                p = *fast;
            } else {
                auto parsed = parse_fen<R>(fen);
                if (!parsed) return Failure{i, parsed.error(), {}, {}};
                p = *parsed;
            }
        }
        begin = b.end[i];
        const probe::Result r = tb.probe_wdl(p);
        if (r.ok())
            out[i] = static_cast<std::int8_t>(wdl_int(r.wdl));
        else if (unreachable && r.status == probe::Status::missing)
            out[i] = static_cast<std::int8_t>(*unreachable);
        else
            return Failure{i, {}, r, p};
    }
    return std::nullopt;
}

py::array_t<std::int8_t> probe_many(const PyTablebase& self, const py::iterable& fens, std::optional<int> missing) {
    if (missing && (*missing < -128 || *missing > 127)) throw py::value_error("missing must fit in an int8");
    // A str is iterable (by character): one FEN given alone is a mistake, not 40 FENs.
    if (py::isinstance<py::str>(fens) || py::isinstance<py::bytes>(fens))
        throw py::type_error("probe_many takes an iterable of FENs or Positions, not one str (use probe() for one)");
    const auto tb = self.tables();
    const Batch batch = collect(fens, self.variant());
    py::array_t<std::int8_t> out(static_cast<py::ssize_t>(batch.given.size()));
    std::int8_t* data = out.mutable_data();
    std::optional<Failure> failure;
    {
        py::gil_scoped_release unlocked;
        failure =
            with_variant(self.variant(), [&](auto r) { return probe_all<decltype(r)>(*tb, batch, data, missing); });
    }
    if (failure) {
        const std::string where = "fens[" + std::to_string(failure->index) + "]: ";
        if (!failure->parse_error.empty()) throw py::value_error(where + failure->parse_error);
        raise_result(*tb, failure->result, where + tb->to_fen(failure->position));
    }
    return out;
}

}  // namespace

void bind_batch(TablebaseClass& c) {
    c.def("probe_many", &probe_many, py::arg("fens"), py::kw_only(), py::arg("missing") = py::none(),
          "WDL of each position (FEN strings or Positions) as a numpy int8 array: -1 loss, 0 draw, 1 win (compare "
          "with dtb.Wdl). The GIL is released while probing. `missing`: the value given to positions the tables do "
          "not reach (more pieces, a table file absent) instead of raising TablesMissing. A bad FEN raises "
          "ValueError and a corrupt table TableCorrupt, naming the item.");
}

}  // namespace dtb::python
