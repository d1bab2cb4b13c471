#include "dtb/json/plan_json.hpp"

#include "dtb/gen/cost_model.hpp"

namespace dtb::json {

nlohmann::ordered_json plan_json(const gen::Plan& plan) {
    using J = nlohmann::ordered_json;
    const auto name = [&](std::size_t p) { return plan.pairs[p].figures.material.name(); };
    J pairs = J::array();
    for (const gen::PlannedPair& p : plan.pairs) {
        const gen::PairFigures& f = p.figures;
        J j;
        j["name"] = f.material.name();
        j["pieces"] = f.material.pieces();
        j["kind"] = gen::kind_name(gen::kind_of(f.material));
        j["positions"] = f.positions;
        j["entries"] = f.entries;
        j["levels"] = f.levels;
        j["largest_level"] = f.largest_level;
        j["input_bytes"] = f.input_bytes;
        j["whole_bytes"] = f.whole_bytes;
        j["level_bytes"] = f.level_bytes ? J(f.level_bytes) : J();
        j["disk_bytes"] = {{"wdl", f.disk.wdl},
                           {"dtw", f.disk.dtw},
                           {"dtc", f.disk.dtc},
                           {"rule_tables", f.disk.rule_tables},
                           {"all", f.disk.all()}};
        j["mode"] = p.mode == gen::SolveMode::whole ? "whole" : "by levels";
        j["by_blocks"] = p.mode != gen::SolveMode::whole && f.level_by_blocks;
        j["seconds"] = p.seconds;
        j["node"] = p.node;
        j["start"] = p.start;
        j["end"] = p.end;
        J inputs = J::array();
        for (std::size_t x : f.inputs) inputs.push_back(name(x));
        j["inputs"] = inputs;
        pairs.push_back(std::move(j));
    }
    J path = J::array();
    for (std::size_t p : plan.critical_path.pairs) path.push_back(name(p));
    const gen::SimulatedRun& run = plan.run;
    J out;
    out["variant"] = std::string(variant_name(plan.request.variant));
    out["pieces"] = plan.request.pieces;
    out["nodes"] = plan.request.nodes;
    out["cores"] = plan.request.cores;
    out["memory_mb"] = plan.request.memory_mb;
    out["work_limit_bytes"] = plan.work_limit;
    out["pairs"] = pairs;
    out["critical_path"] = {{"seconds", plan.critical_path.seconds}, {"pairs", path}};
    out["run"] = {{"wall_seconds", run.wall_seconds},
                  {"busiest_node", run.busiest},
                  {"busiest_seconds", run.busy_seconds.empty() ? 0.0 : run.busy_seconds[run.busiest]},
                  {"idle_share", run.idle_share},
                  {"busy_seconds", run.busy_seconds}};
    out["level_sharing"] = {{"critical_path_seconds", plan.level_sharing.critical_path_seconds},
                            {"bound_seconds", plan.level_sharing.bound_seconds},
                            {"bound_without_seconds", plan.level_sharing.bound_without_seconds}};
    out["totals"] = {{"pairs", plan.pairs.size()},  {"positions", plan.positions},
                     {"entries", plan.entries},     {"disk_bytes", plan.disk_bytes},
                     {"wdl_bytes", plan.wdl_bytes}, {"work_seconds", plan.work_seconds}};
    return out;
}

}  // namespace dtb::json
