// Tablebase.solve: `dtb solve` from Python (solve/prover.hpp): a position beyond the tables
// proven won, drawn or lost within a time or node limit, as the object of `dtb solve --json`.
#include <optional>

#include "dtb/json/dump.hpp"
#include "dtb/json/solve_json.hpp"
#include "dtb/solve/prover.hpp"
#include "src/bindings.hpp"

namespace dtb::python {

namespace {

py::object solve(const PyTablebase& self, const py::object& fen, double time, std::uint64_t nodes,
                 std::size_t memory_mb, const std::string& rules, int reversible, std::optional<int> endgame,
                 std::optional<int> small) {
    const auto rule_set = parse_counting_rules(rules);
    if (!rule_set) throw py::value_error("rules must be 'none', 'fmjd' or 'ffjd', not '" + rules + "'");
    if (!(time >= 0) || (time == 0 && nodes == 0)) throw py::value_error("give a time (seconds) or a node limit");
    const auto tb = self.tables();
    const Position p = position_arg(fen, self.variant());
    solve::ProverOptions options;
    options.rules = *rule_set;
    options.counters = {reversible, endgame, small};
    options.max_seconds = time;
    options.max_nodes = nodes;
    options.memory_mb = memory_mb;
    auto prover = solve::Prover::create(*tb, options);
    if (!prover) throw py::value_error(prover.error());
    solve::SolveResult r;
    {
        py::gil_scoped_release unlocked;
        r = prover.value().solve(p);
    }
    if (!r.ok()) raise_result(*tb, r.status, tb->to_fen(p));
    const std::string dumped =
        json::dump(json::solve_json(tb->to_fen(p), self.variant(), *rule_set, options.counters, r));
    return py::module_::import("json").attr("loads")(dumped);
}

}  // namespace

void bind_solve(TablebaseClass& c) {
    c.def("solve", &solve, py::arg("fen"), py::kw_only(), py::arg("time") = 10.0, py::arg("nodes") = 0,
          py::arg("memory_mb") = 256, py::arg("rules") = "none", py::arg("reversible") = 0,
          py::arg("endgame") = py::none(), py::arg("small") = py::none(),
          "Proves the position won, drawn or lost beyond the tables (`dtb solve`): the object of "
          "`dtb solve --json` ({'answer', 'lower', 'upper', 'best_move', 'pv', 'nodes', ...}); 'answer' is "
          "'unresolved' when the limits came first.");
}

}  // namespace dtb::python
