#include "dtb/json/solve_json.hpp"

#include "dtb/json/probe_json.hpp"

namespace dtb::json {

nlohmann::json solve_json(const std::string& fen, VariantId variant, CountingRules rules,
                          const adjudicate::Counters& counters, const solve::SolveResult& r) {
    nlohmann::json pv = nlohmann::json::array();
    for (const solve::SolveMove& m : r.pv) pv.push_back(m.text);
    return {{"fen", fen},
            {"variant", std::string(variant_name(variant))},
            {"rules", std::string(to_string(rules))},
            {"counters", rules == CountingRules::none ? nlohmann::json() : counters_json(counters)},
            {"answer", std::string(to_string(r.answer))},
            {"lower", std::string(to_string(r.lower))},
            {"upper", std::string(to_string(r.upper))},
            {"source", std::string(to_string(r.source))},
            {"best_move", r.best_move ? nlohmann::json(r.best_move->text) : nlohmann::json()},
            {"pv", pv},
            {"nodes", r.nodes},
            {"probes", r.probes},
            {"max_pieces", r.max_pieces},
            {"seconds", r.seconds},
            {"stopped", std::string(to_string(r.stop))}};
}

nlohmann::json proof_check_json(const std::string& file, const solve::ProofCheck& c) {
    return {{"file", file},
            {"valid", c.valid},
            {"problem", c.valid ? nlohmann::json() : nlohmann::json(c.problem)},
            {"answer", std::string(to_string(c.answer))},
            {"lower", std::string(to_string(c.lower))},
            {"upper", std::string(to_string(c.upper))},
            {"nodes", c.nodes},
            {"leaves", c.leaves}};
}

}  // namespace dtb::json
