// Tablebase.adjudicate and adjudicate_pdn: results under the counting rules of international
// draughts (adjudicate/adjudicator.hpp, adjudicate/game_check.hpp), with the fields of
// `dtb adjudicate --json` and `dtb adjudicate --pdn --json`.

#include <optional>

#include "dtb/adjudicate/judge_games.hpp"
#include "dtb/json/dump.hpp"
#include "dtb/json/game_json.hpp"
#include "dtb/json/probe_json.hpp"
#include "src/bindings.hpp"

namespace dtb::python {

namespace {

struct PyRuleMove {
    std::string move, fen;
    Wdl result = Wdl::draw;
    int plies = -1;
};

// What `dtb adjudicate --fen ... --json` prints (tools/adjudicate_command.cpp).
struct PyAdjudication {
    std::string fen, rules;
    adjudicate::Counters counters;
    Wdl result = Wdl::draw;
    int plies = -1;
    bool plies_known = true;
    std::string rule;
    std::vector<PyRuleMove> moves;
    bool theoretical_known = true;
    Wdl theoretical = Wdl::draw;
    int theoretical_dtw = -1;
    std::string json;  // `dtb adjudicate --json`'s object (json/probe_json.hpp)
};

py::object optional_int(const std::optional<int>& v) {
    return v ? py::object(py::int_(*v)) : py::object(py::none());
}

CountingRules rules_arg(const std::string& rules) {
    const auto r = parse_counting_rules(rules);
    if (!r) throw py::value_error("rules must be 'fmjd', 'ffjd' or 'none', not '" + rules + "'");
    return *r;
}

PyAdjudication adjudicate(const PyTablebase& self, const py::object& fen, const std::string& rules, int reversible,
                          std::optional<int> endgame, std::optional<int> small) {
    const CountingRules rule_set = rules_arg(rules);
    for (const auto& [name, value] : {std::pair{"reversible", std::optional<int>(reversible)},
                                      std::pair{"endgame", endgame}, std::pair{"small", small}})
        if (value && (*value < 0 || *value > adjudicate::kMaxCounterPlies))
            throw py::value_error(std::string(name) + " must be a whole number from 0 to " +
                                  std::to_string(adjudicate::kMaxCounterPlies) + " (plies), not " +
                                  std::to_string(*value));
    const auto tb = self.tables();
    const Position p = position_arg(fen, self.variant());
    adjudicate::Adjudication a;
    {
        py::gil_scoped_release unlocked;
        a = adjudicate::Adjudicator(*tb, rule_set).adjudicate(p, {reversible, endgame, small});
    }
    if (!a.ok()) raise_result(*tb, a.status, tb->to_fen(p));
    PyAdjudication out{tb->to_fen(p),
                       rules,
                       a.counters,
                       a.result,
                       a.plies,
                       a.plies_known,
                       std::string(adjudicate::to_string(a.rule)),
                       {},
                       a.theoretical_known,
                       a.theoretical,
                       a.theoretical_dtw,
                       json::dump(json::adjudication_json(*tb, p, rules, a))};
    for (const adjudicate::RuleMove& m : a.moves)
        out.moves.push_back({m.text, tb->to_fen(make_move(p, m.move)), m.result, m.plies});
    return out;
}

// The bytes of a PDN file (str, bytes or os.PathLike path); FileNotFoundError when it is not there.
std::string pdn_file(const py::object& path, std::string& source) {
    const std::string name = path_arg(path, "the PDN file");
    source = name;
    // Read as bytes, as the CLI does (tag text may be in a legacy encoding).
    const py::object file = py::module_::import("builtins").attr("open")(py::bytes(name), "rb");
    const py::object data = file.attr("read")();
    file.attr("close")();
    return data.cast<std::string>();
}

// The PDN to judge: text (str or bytes) as it is, or the bytes of a file (os.PathLike, such as
// pathlib.Path). A str is never taken for a file's name: adjudicate_pdn_file reads one.
std::string pdn_text(const py::object& text_or_path, std::string& source) {
    if (py::isinstance<py::bytes>(text_or_path)) {
        source = "the text";
        return text_or_path.cast<std::string>();
    }
    if (py::isinstance<py::str>(text_or_path)) {
        source = "the text";
        std::string text = text_arg(text_or_path, "the PDN text");
        // A one-line str naming a file is most likely meant as that file: refused with the two
        // ways to say so, rather than judged as PDN text or read on a guess.
        if (text.find('\n') == std::string::npos && !text.empty() &&
            py::module_::import("os").attr("path").attr("exists")(text_or_path).cast<bool>())
            throw py::value_error("'" + text + "' is the name of a file, and adjudicate_pdn takes a str as PDN text: " +
                                  "give pathlib.Path('" + text + "') or call adjudicate_pdn_file");
        return text;
    }
    if (!py::hasattr(text_or_path, "__fspath__"))
        throw py::type_error("adjudicate_pdn takes PDN text (str or bytes) or a pathlib.Path");
    return pdn_file(text_or_path, source);
}

py::object judge_pdn(const PyTablebase& self, const std::string& text, const std::string& source,
                     const std::string& rules, bool strict) {
    const CountingRules rule_set = rules_arg(rules);
    const auto tb = self.tables();
    std::string dumped;
    std::optional<Expected<adjudicate::JudgedGames>> judged;
    {
        py::gil_scoped_release unlocked;
        // The handle serves the games of its variant; the other variant's tables are read from
        // the folder beside the handle's, as `dtb adjudicate --pdn` reads the Turkish tables
        // beside --db.
        const bool international = self.variant() == VariantId::international;
        adjudicate::GameTableSources sources;
        (international ? sources.international : sources.turkish).tables = &*tb;
        const VariantId other = international ? VariantId::turkish : VariantId::international;
        (international ? sources.turkish : sources.international).folder =
            adjudicate::folder_beside(self.directories().front(), other);
        judged.emplace(adjudicate::judge_pdn(text, sources, {.rules = rule_set}));
        // As the CLI prints it; text that is not UTF-8 (legacy tag encodings) is replaced.
        if (*judged) dumped = json::dump(json::games_json(rules, (*judged)->games, (*judged)->checks));
    }
    if (!*judged)  // ErrorKind::bad_input: the text holds no game
        throw py::value_error("no game in " + source +
                              (source == "the text"
                                   ? " (a PDN text: tags and moves; to read a file, give a pathlib.Path "
                                     "or call adjudicate_pdn_file)"
                                   : ""));
    const adjudicate::JudgedGames& j = **judged;
    if (strict && j.bad_record) throw py::value_error(j.bad_record_error);
    if (j.table_status != probe::Status::ok) raise_tables(j.table_status, j.table_error);
    return py::module_::import("json").attr("loads")(dumped);
}

py::object adjudicate_pdn(const PyTablebase& self, const py::object& text_or_path, const std::string& rules,
                          bool strict) {
    std::string source;
    const std::string text = pdn_text(text_or_path, source);
    return judge_pdn(self, text, source, rules, strict);
}

py::object adjudicate_pdn_file(const PyTablebase& self, const py::object& path, const std::string& rules, bool strict) {
    std::string source;
    const std::string text = pdn_file(path, source);
    return judge_pdn(self, text, source, rules, strict);
}

}  // namespace

void bind_adjudication(py::module_& m, TablebaseClass& c) {
    py::class_<PyRuleMove>(m, "RuleMove", "A move that keeps the adjudicated result.")
        .def_readonly("move", &PyRuleMove::move)
        .def_readonly("fen", &PyRuleMove::fen, "The position after the move.")
        .def_property_readonly(
            "result", [](const PyRuleMove& r) { return wdl_object(r.result); },
            "The result it keeps for the side that plays it.")
        .def_property_readonly(
            "plies", [](const PyRuleMove& r) { return distance_object(r.result, r.plies); },
            "Plies to the end under the rules; None for a draw.")
        .def("__repr__", [](const PyRuleMove& r) {
            return "RuleMove(move='" + r.move + "', result=" + std::string(to_string(r.result)) + ")";
        });

    py::class_<PyAdjudication>(m, "Adjudication", "A position's result under the counting rules (dtb adjudicate).")
        .def_readonly("fen", &PyAdjudication::fen)
        .def_readonly("rules", &PyAdjudication::rules)
        .def_property_readonly("reversible", [](const PyAdjudication& a) { return a.counters.reversible; })
        .def_property_readonly("endgame", [](const PyAdjudication& a) { return optional_int(a.counters.endgame); })
        .def_property_readonly("small", [](const PyAdjudication& a) { return optional_int(a.counters.small); })
        .def_property_readonly(
            "result", [](const PyAdjudication& a) { return wdl_object(a.result); },
            "The result for the side to move under the rules.")
        .def_property_readonly(
            "plies", [](const PyAdjudication& a) { return distance_object(a.result, a.plies); },
            "Plies to the end under the rules; None for a draw (or when not searched).")
        .def_readonly("plies_known", &PyAdjudication::plies_known)
        .def_readonly("rule", &PyAdjudication::rule,
                      "The rule that turns the theoretical result into a draw: 'none', '25-move', '16-move', "
                      "'5-move', '2k-v-k'.")
        .def_readonly("moves", &PyAdjudication::moves, "The moves that keep the result, best first.")
        .def_property_readonly(
            "theoretical",
            [](const PyAdjudication& a) {
                return a.theoretical_known ? wdl_object(a.theoretical) : py::object(py::none());
            },
            "The value without the counting rules; None beyond the tables' reach.")
        .def_property_readonly(
            "theoretical_dtw",
            [](const PyAdjudication& a) { return distance_object(a.theoretical, a.theoretical_dtw); })
        .def(
            "to_dict", [](const PyAdjudication& a) { return py::module_::import("json").attr("loads")(a.json); },
            "The object of `dtb adjudicate --json`, the same keys and values (json/probe_json.hpp builds both).")
        .def("__repr__", [](const PyAdjudication& a) {
            return "Adjudication(fen='" + a.fen + "', result=" + std::string(to_string(a.result)) + ", rule='" +
                   a.rule + "')";
        });

    c.def("adjudicate", &adjudicate, py::arg("fen"), py::arg("rules") = "fmjd", py::arg("reversible") = 0,
          py::arg("endgame") = py::none(), py::arg("small") = py::none(),
          "The result of an international position under the counting rules ('fmjd', 'ffjd' or 'none') with the "
          "game's counters in plies (reversible: since the last man move or capture; endgame: since the 16-move "
          "class was entered; small: since the 5-move class was entered). Needs the rule tables of `dtb gen`.")
        .def("adjudicate_pdn", &adjudicate_pdn, py::arg("text_or_path"), py::arg("rules") = "fmjd", py::kw_only(),
             py::arg("strict") = false,
             "Every game of a PDN text (str or bytes; a pathlib.Path reads that file) replayed and judged: a dict "
             "with the fields of "
             "`dtb adjudicate --pdn --json` ({'rules', 'games': [...]}). Records that cannot be judged (a syntax "
             "error, a bad FEN, another variant) are reported in their game (judged False, problems), or raise "
             "ValueError with the reader's message when strict; ValueError when the text holds no game; "
             "TablesMissing / TableCorrupt when the tables fail a game.")
        .def("adjudicate_pdn_file", &adjudicate_pdn_file, py::arg("path"), py::arg("rules") = "fmjd", py::kw_only(),
             py::arg("strict") = false,
             "adjudicate_pdn of the PDN file at `path` (str, bytes or os.PathLike); FileNotFoundError when it is "
             "not there.");
}

}  // namespace dtb::python
