// dtb.Tablebase: a handle on a folder of tables (probe/probe.hpp) with the values of `dtb probe`.
// The GIL is released while the tables are read, so Python threads probe one handle at once.

#include <filesystem>

#include "dtb/json/dump.hpp"
#include "dtb/json/probe_json.hpp"
#include "dtb/probe/folder_variant.hpp"
#include "dtb/probe/table_folders.hpp"
#include "src/bindings.hpp"

namespace dtb::python {

namespace {

// A move with its value, seen by the side that plays it (the CLI's "moves" entries, plus the
// position after it and what kind of move it is).
struct PyMoveValue {
    std::string move, fen;
    Wdl wdl = Wdl::draw;
    int dtw = -1, dtc = -1;
    int captures = 0;
    bool promotes = false;
    std::vector<std::string> path;  // the squares the piece stands on, start to end
    std::string json;               // the move's object in `dtb probe --json`
};

// What `dtb probe --json` prints for a position.
struct PyProbe {
    std::string fen, variant;
    Wdl wdl = Wdl::draw;
    int dtw = -1, dtc = -1;
    std::vector<PyMoveValue> moves;
    std::vector<std::string> pv;
    std::string json;  // `dtb probe --json`'s object (json/probe_json.hpp)
};

py::object json_object(const std::string& text) {
    return py::module_::import("json").attr("loads")(text);
}

std::vector<std::string> directories_arg(const py::object& path) {
    std::vector<std::string> dirs;
    if (py::isinstance<py::str>(path) || py::isinstance<py::bytes>(path) || py::hasattr(path, "__fspath__"))
        dirs.push_back(path_arg(path, "the tables folder"));
    else
        for (py::handle h : path) dirs.push_back(path_arg(h, "a tables folder"));
    if (dirs.empty()) throw py::value_error("Tablebase: no folder given");
    return dirs;
}

PyProbe probe(const PyTablebase& self, const py::object& fen) {
    const auto tb = self.tables();
    const Position p = position_arg(fen, self.variant());
    probe::Analysis a;
    {
        py::gil_scoped_release unlocked;
        a = tb->analyse(p);
    }
    if (!a.result.ok()) raise_result(*tb, a.result, tb->to_fen(p));
    const nlohmann::json j = json::analysis_json(*tb, p, a);
    PyProbe out{
        tb->to_fen(p), std::string(variant_name(self.variant())), a.result.wdl, a.result.dtw, a.result.dtc, {}, {},
        json::dump(j)};
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
        const probe::MoveValue& m = a.moves[i];
        const nlohmann::json& jm = j["moves"][i];
        out.moves.push_back({m.text, tb->to_fen(make_move(p, m.move)), m.wdl, m.dtw, m.dtc, m.move.num_captured(),
                             m.move.promotes, jm["path"].get<std::vector<std::string>>(), json::dump(jm)});
    }
    for (const probe::MoveValue& m : a.pv) out.pv.push_back(m.text);
    return out;
}

template <unsigned Metrics>
probe::Result probe_one(const PyTablebase& self, const py::object& fen) {
    const auto tb = self.tables();
    const Position p = position_arg(fen, self.variant());
    probe::Result r;
    {
        py::gil_scoped_release unlocked;
        r = tb->probe(p, Metrics);
    }
    if (!r.ok()) raise_result(*tb, r, tb->to_fen(p));
    return r;
}

}  // namespace

PyTablebase::PyTablebase(const py::object& path, const std::optional<std::string>& variant, std::size_t cache_mb)
    : variant_(variant ? variant_arg(*variant) : VariantId::international),
      directories_(path.is_none() ? std::vector<std::string>{probe::tables_root().string()} : directories_arg(path)) {
    // A tables root stands for its variant's folder; a variant's folder says its variant.
    for (std::string& d : directories_)
        if (probe::is_tables_root(d)) d = probe::variant_folder(d, variant_).string();
    if (!variant && directories_.size() == 1)
        if (const auto held = format::folder_variant(directories_.front())) variant_ = *held;
    probe::Options options;
    options.variant = variant_;
    options.cache_mb = cache_mb;
    // Rule tables (international only) open on first use, for adjudicate().
    options.metrics = probe::kAllMetrics | (variant_ == VariantId::international ? probe::kRuleMetrics : 0u);
    for (const std::string& d : directories_) options.directories.emplace_back(d);
    auto tb = probe::Tablebase::open(options);
    if (!tb) raise_tables(probe::Status::missing, tb.error());
    tb_ = std::make_shared<const probe::Tablebase>(std::move(tb.value()));
}

std::shared_ptr<const probe::Tablebase> PyTablebase::tables() const {
    if (!tb_) throw py::value_error("operation on a closed Tablebase");
    return tb_;
}

TablebaseClass bind_tablebase(py::module_& m) {
    py::class_<PyMoveValue>(m, "MoveValue", "A legal move with its value for the side that plays it.")
        .def_readonly("move", &PyMoveValue::move, "Notation, unambiguous among the legal moves.")
        .def_readonly("fen", &PyMoveValue::fen, "The position after the move.")
        .def_property_readonly("wdl", [](const PyMoveValue& v) { return wdl_object(v.wdl); })
        .def_property_readonly(
            "dtw", [](const PyMoveValue& v) { return distance_object(v.wdl, v.dtw); },
            "Plies to the end of the game with best play after this move; None for a draw.")
        .def_property_readonly(
            "dtc", [](const PyMoveValue& v) { return distance_object(v.wdl, v.dtc); },
            "Plies to the next capture or man move; None for a draw.")
        .def_readonly("captures", &PyMoveValue::captures, "Pieces the move captures (0: a plain move).")
        .def_property_readonly("is_capture", [](const PyMoveValue& v) { return v.captures > 0; })
        .def_readonly("promotes", &PyMoveValue::promotes, "True when a man ends the move on its promotion row.")
        .def_readonly("path", &PyMoveValue::path, "The squares the piece stands on, start to end.")
        .def(
            "to_dict", [](const PyMoveValue& v) { return json_object(v.json); },
            "The move's object in `dtb probe --json` (move, wdl, dtw, dtc, fen, captures, promotes, path).")
        .def("__repr__", [](const PyMoveValue& v) {
            return "MoveValue(move='" + v.move + "', wdl=" + std::string(to_string(v.wdl)) + ")";
        });

    py::class_<PyProbe>(m, "ProbeResult", "A position's value, its moves best first and its principal variation.")
        .def_readonly("fen", &PyProbe::fen)
        .def_readonly("variant", &PyProbe::variant)
        .def_property_readonly(
            "wdl", [](const PyProbe& p) { return wdl_object(p.wdl); }, "The value for the side to move.")
        .def_property_readonly(
            "dtw", [](const PyProbe& p) { return distance_object(p.wdl, p.dtw); },
            "Plies to the end of the game with best play; None for a draw.")
        .def_property_readonly(
            "dtc", [](const PyProbe& p) { return distance_object(p.wdl, p.dtc); },
            "Plies to the next capture or man move with best play; None for a draw.")
        .def_readonly("moves", &PyProbe::moves, "Every legal move with its value, best first.")
        .def_readonly("pv", &PyProbe::pv, "Best moves of both sides to the end of the game; empty for a draw.")
        .def_property_readonly(
            "best_move",
            [](const PyProbe& p) { return p.moves.empty() ? py::object(py::none()) : py::cast(p.moves.front()); },
            "The first of moves, or None when the side to move has no move.")
        .def(
            "to_dict", [](const PyProbe& p) { return json_object(p.json); },
            "The object of `dtb probe --json`, the same keys and values (json/probe_json.hpp builds both).")
        .def("__repr__", [](const PyProbe& p) {
            return "ProbeResult(fen='" + p.fen + "', wdl=" + std::string(to_string(p.wdl)) +
                   (p.wdl == Wdl::draw ? std::string() : ", dtw=" + std::to_string(p.dtw)) + ")";
        });

    TablebaseClass c(m, "Tablebase",
                     "A folder (or folders, searched in order) of tables of one variant. Use as a context manager or "
                     "call close(). Safe to share between threads; probes release the GIL.");
    c.def(py::init<const py::object&, const std::optional<std::string>&, std::size_t>(), py::arg("path") = py::none(),
          py::arg("variant") = py::none(), py::arg("cache_mb") = 64,
          "Opens the tables in `path`: one variant's folder, a list of folders, or a tables root holding "
          "international/ and turkish/ (None: $DTB_TABLES, else data/tb). `variant` None: the folder's own (its "
          "tables say it), international for a root. Raises TablesMissing when a folder does not exist or holds no "
          "table, ValueError for an unknown variant. Table files open on first use.")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__",
             [](PyTablebase& self, const py::args&) {
                 self.close();
                 return false;
             })
        .def("close", &PyTablebase::close, "Releases the tables and the cache; later calls raise ValueError.")
        .def_property_readonly("closed", &PyTablebase::closed)
        .def_property_readonly("variant",
                               [](const PyTablebase& self) { return std::string(variant_name(self.variant())); })
        .def_property_readonly("directories", &PyTablebase::directories)
        .def_property_readonly(
            "max_pieces", [](const PyTablebase& self) { return self.tables()->max_pieces(); },
            "Pieces of the largest slice found: positions with more are out of reach.")
        .def("probe", &probe, py::arg("fen"),
             "Value, DTW, DTC, every move with its value and the principal variation of a position (a FEN or a "
             "Position), as `dtb probe`. ValueError for a bad FEN or a position that cannot be probed; "
             "TablesMissing / TableCorrupt for the tables.")
        .def(
            "wdl",
            [](const PyTablebase& self, const py::object& fen) {
                return wdl_object(probe_one<probe::kWdl>(self, fen).wdl);
            },
            py::arg("fen"), "The value for the side to move alone: the fast path.")
        .def(
            "dtw",
            [](const PyTablebase& self, const py::object& fen) {
                const probe::Result r = probe_one<probe::kWdl | probe::kDtw>(self, fen);
                return distance_object(r.wdl, r.dtw);
            },
            py::arg("fen"), "Plies to the end of the game with best play; None for a draw.")
        .def("__repr__", [](const PyTablebase& self) {
            std::string dirs;
            for (const std::string& d : self.directories()) dirs += (dirs.empty() ? "'" : ", '") + d + "'";
            return "Tablebase([" + dirs + "], variant='" + std::string(variant_name(self.variant())) + "'" +
                   (self.closed() ? ", closed)" : ")");
        });
    return c;
}

}  // namespace dtb::python
