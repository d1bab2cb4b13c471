// Position, Move and perft: the rules of both variants without tables (rules/fen.hpp,
// rules/notation.hpp, rules/perft.hpp). Positions are immutable: play() returns a new one.

#include <functional>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/rules/perft.hpp"
#include "src/bindings.hpp"
#include "src/canonical_fen.hpp"

namespace dtb::python {

namespace {

// A legal move of a position, with the position it is played from (play() checks it).
struct PyMove {
    VariantId variant = VariantId::international;
    Position from;
    Move move;
    std::string text;  // unambiguous among the legal moves
};

template <class R>
std::string square_name(int sq) {
    return R::Geometry::square_name(sq);
}

Position parse_fen_or_raise(std::string_view fen, VariantId variant) {
    if (const auto fast = with_variant(variant, [&](auto r) { return parse_canonical_fen<decltype(r)>(fen); }))
        return *fast;
    auto p = with_variant(variant, [&](auto r) { return parse_fen<decltype(r)>(fen); });
    if (!p) throw py::value_error(p.error());
    return *p;
}

std::vector<PyMove> legal_moves(const PyPosition& p) {
    return with_variant(p.variant, [&](auto r) {
        using R = decltype(r);
        MoveList legal;
        generate_moves<R>(p.position, legal);
        std::vector<PyMove> out;
        out.reserve(legal.size());
        for (const Move& m : legal) out.push_back({p.variant, p.position, m, move_to_string<R>(m, legal)});
        return out;
    });
}

PyPosition play(const PyPosition& p, const py::object& move) {
    if (py::isinstance<PyMove>(move)) {
        const PyMove& m = move.cast<const PyMove&>();
        if (m.variant != p.variant || m.from != p.position)
            throw py::value_error("move " + m.text + " is not a move of " + fen_of(p.position, p.variant));
        return {p.variant, make_move(p.position, m.move)};
    }
    if (!py::isinstance<py::str>(move)) throw py::type_error("play() takes a move text (str) or a Move");
    const std::string text = move.cast<std::string>();
    auto m = with_variant(p.variant, [&](auto r) { return parse_move<decltype(r)>(p.position, text); });
    if (!m) throw py::value_error(m.error());
    return {p.variant, make_move(p.position, *m)};
}

std::uint64_t perft(const py::object& position, int depth, const std::string& variant, const std::string& captures) {
    if (depth < 0 || depth > 30) throw py::value_error("perft depth must be 0 to 30");
    if (captures != "unique" && captures != "paths") throw py::value_error("captures must be 'unique' or 'paths'");
    VariantId v = variant_arg(variant);
    if (py::isinstance<PyPosition>(position)) v = position.cast<const PyPosition&>().variant;
    const Position p = position.is_none()
                           ? parse_fen_or_raise(with_variant(v, [](auto r) { return decltype(r)::kStartFen; }), v)
                           : position_arg(position, v);
    const CaptureMode mode = captures == "paths" ? CaptureMode::paths : CaptureMode::unique;
    py::gil_scoped_release unlocked;
    return with_variant(v, [&](auto r) { return Perft<decltype(r)>(mode).count(p, depth); });
}

std::size_t position_hash(const PyPosition& p) {
    std::size_t h = std::hash<Bitboard>{}(p.position.pieces[0]);
    for (std::size_t x : {std::hash<Bitboard>{}(p.position.pieces[1]), std::hash<Bitboard>{}(p.position.kings),
                          static_cast<std::size_t>(p.position.side_to_move) * 2 + static_cast<std::size_t>(p.variant)})
        h = h * 1000003u ^ x;
    return h;
}

PyPosition from_fen(const std::string& fen, const std::string& variant) {
    const VariantId v = variant_arg(variant);
    return {v, parse_fen_or_raise(fen, v)};
}

PyPosition start(const std::string& variant) {
    const VariantId v = variant_arg(variant);
    return {v, parse_fen_or_raise(with_variant(v, [](auto r) { return decltype(r)::kStartFen; }), v)};
}

}  // namespace

std::string fen_of(const Position& p, VariantId variant) {
    return with_variant(variant, [&](auto r) { return to_fen<decltype(r)>(p); });
}

Position position_arg(py::handle fen_or_position, VariantId variant) {
    if (py::isinstance<py::str>(fen_or_position))
        return parse_fen_or_raise(text_arg(fen_or_position, "the FEN"), variant);
    if (py::detail::make_caster<PyPosition> caster; caster.load(fen_or_position, false)) {
        const PyPosition& p = py::detail::cast_op<const PyPosition&>(caster);
        if (p.variant != variant)
            throw py::value_error("a " + std::string(variant_name(p.variant)) + " position where a " +
                                  std::string(variant_name(variant)) + " one is needed");
        return p.position;
    }
    throw py::type_error("expected a FEN (str) or a dtb.Position");
}

void bind_position(py::module_& m) {
    py::class_<PyMove>(m, "Move", "A legal move of a Position (Position.legal_moves()).")
        .def_readonly("text", &PyMove::text, "Notation, unambiguous among the legal moves: '32-28', '28x19x10'.")
        .def_property_readonly(
            "path",
            [](const PyMove& m) {
                return with_variant(m.variant, [&](auto r) { return move_full_path<decltype(r)>(m.move); });
            },
            "Every square of the move: '28x19x10' for a capture, '32-28' otherwise.")
        .def_property_readonly(
            "from_square",
            [](const PyMove& m) {
                return with_variant(m.variant, [&](auto r) { return square_name<decltype(r)>(m.move.from); });
            },
            "The origin square ('32', 'd3').")
        .def_property_readonly(
            "to_square",
            [](const PyMove& m) {
                return with_variant(m.variant, [&](auto r) { return square_name<decltype(r)>(m.move.to); });
            },
            "The destination square.")
        .def_property_readonly(
            "captures", [](const PyMove& m) { return m.move.num_captured(); }, "Pieces captured (0 for a plain move).")
        .def_property_readonly("is_capture", [](const PyMove& m) { return m.move.is_capture(); })
        .def_property_readonly(
            "promotes", [](const PyMove& m) { return m.move.promotes; },
            "True when a man ends the move on its promotion row.")
        .def("__str__", [](const PyMove& m) { return m.text; })
        .def("__repr__", [](const PyMove& m) { return "Move('" + m.text + "')"; })
        .def("__eq__",
             [](const PyMove& a, const PyMove& b) {
                 return a.variant == b.variant && a.from == b.from && a.move.same_effect(b.move);
             })
        .def("__hash__", [](const PyMove& m) { return std::hash<std::string>{}(m.text) ^ m.move.captured; });

    py::class_<PyPosition>(m, "Position", "A position of international (10x10) or Turkish (8x8) draughts; immutable.")
        .def(py::init([](const std::optional<std::string>& fen, const std::string& variant) {
                 return fen ? from_fen(*fen, variant) : start(variant);
             }),
             py::arg("fen") = py::none(), py::arg("variant") = "international",
             "From a PDN FEN ('W:W31,K46:B1,K5'); the start position when fen is None. ValueError for a bad FEN.")
        .def_static("from_fen", &from_fen, py::arg("fen"), py::arg("variant") = "international",
                    "Parses a PDN FEN; ValueError with the parser's message when it is malformed.")
        .def_static("start", &start, py::arg("variant") = "international", "The variant's start position.")
        .def(
            "fen", [](const PyPosition& p) { return fen_of(p.position, p.variant); },
            "The canonical FEN (White first, squares ascending).")
        .def_property_readonly("variant", [](const PyPosition& p) { return std::string(variant_name(p.variant)); })
        .def_property_readonly(
            "side_to_move",
            [](const PyPosition& p) { return p.position.side_to_move == Color::white ? "white" : "black"; },
            "'white' or 'black'.")
        .def_property_readonly(
            "pieces", [](const PyPosition& p) { return popcount(p.position.occupied()); },
            "Pieces on the board, both sides.")
        .def("legal_moves", &legal_moves, "Legal moves (captures are compulsory, the majority rule applies).")
        .def("play", &play, py::arg("move"),
             "The position after a move (text such as '32-28' or '28x19x10', or a Move of legal_moves()); "
             "ValueError for an illegal or ambiguous move.")
        .def("__str__", [](const PyPosition& p) { return fen_of(p.position, p.variant); })
        .def("__repr__",
             [](const PyPosition& p) {
                 return "Position('" + fen_of(p.position, p.variant) + "', variant='" +
                        std::string(variant_name(p.variant)) + "')";
             })
        .def("__eq__", [](const PyPosition& a,
                          const PyPosition& b) { return a.variant == b.variant && a.position == b.position; })
        .def("__hash__", &position_hash);

    m.def("perft", &perft, py::arg("position"), py::arg("depth"), py::arg("variant") = "international",
          py::arg("captures") = "unique",
          "Leaf nodes of the legal-move tree to `depth` plies from a Position or FEN (the start position when None). "
          "captures='paths' counts each capture path apart. The GIL is released while counting.");
}

}  // namespace dtb::python
