// dtb perft: node counts of the legal-move tree, for proving the move generator.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "dtb/json/dump.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/rules/perft.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

namespace {
template <class R>
int run_perft(const PerftOptions& o) {
    Position p;
    const std::string fen_text = o.fen_given ? o.fen : std::string(R::kStartFen);
    auto parsed = parse_fen<R>(fen_text);
    if (!parsed) {
        std::cerr << "dtb perft: " << parsed.error() << "\n";
        return kExitBadInput;
    }
    p = *parsed;
    const CaptureMode mode = o.captures == "paths" ? CaptureMode::paths : CaptureMode::unique;
    Perft<R> perft(mode);
    nlohmann::json depths = nlohmann::json::array();
    if (o.divide && o.depth >= 1) {
        MoveList moves;
        MoveGenerator<R>(p, moves, mode).generate();
        std::uint64_t total = 0;
        for (const Move& m : moves) {
            const std::uint64_t n = perft.count(make_move(p, m), o.depth - 1);
            total += n;
            if (!o.json) std::cout << move_full_path<R>(m) << " " << n << "\n";
        }
        if (!o.json) std::cout << "total " << total << "\n";
    }
    for (int d = 1; d <= o.depth; ++d) {
        if (o.divide && d != o.depth) continue;
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t n = perft.count(p, d);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        depths.push_back({{"depth", d}, {"nodes", n}, {"seconds", secs}});
        if (!o.json && !o.divide) {
            std::cout << "depth " << d << " nodes " << n << " time " << secs << " s";
            if (secs > 0) std::cout << " (" << static_cast<std::uint64_t>(n / secs) << " nodes/s)";
            std::cout << std::endl;
        }
    }
    if (o.json) {
        nlohmann::json j = {
            {"variant", std::string(R::kName)}, {"fen", to_fen<R>(p)}, {"captures", o.captures}, {"depths", depths}};
        std::cout << json::dump(j) << "\n";
    }
    return kExitOk;
}
}  // namespace

void add_perft_command(CLI::App& app, PerftOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal-move tree");
    add_variant_option(cmd, o.variant)->default_val("international");
    cmd->add_option("--fen", o.fen, "Start position (default: the variant's start)");
    cmd->add_option("--depth", o.depth, "Depth in plies")->required()->check(integer_in(0, 30));
    cmd->add_option("--captures", o.captures, "unique: a capture counted once; paths: per path")
        ->check(CLI::IsMember({"unique", "paths"}))
        ->default_val("unique");
    cmd->add_flag("--divide", o.divide, "Print each root move with its count");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->callback([&o, cmd, &action]() {
        o.fen_given = cmd->count("--fen") > 0;
        action = [&]() {
            return with_variant(variant_option(o.variant), [&](auto v) { return run_perft<decltype(v)>(o); });
        };
    });
}

}  // namespace dtb::tools
