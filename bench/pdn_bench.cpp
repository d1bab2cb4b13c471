// Reading and judging PDN game records (see BENCHMARKS.md, "PDN adjudication"): 10,000 games of
// 100 plies each, made here as PDN text, read (rules/pdn_reader.hpp) and each judged by
// adjudicate::check_game (the counters ply by ply, the tables at the first position they reach and at
// the end). The games start from random 5-piece positions and are played on at random: every
// game is in the tables' reach, the hard case for the judging side (in a tournament file few
// games are).
// Tables: $DTB_BENCH_TABLES (default data/tb/international), international up to 5 pieces with
// the rule tables (dtb gen writes them); block cache $DTB_BENCH_CACHE_MB (default 64, as dtb
// adjudicate).
//   pdn_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/adjudicate/game_check.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/rules/pdn.hpp"

namespace {

using namespace dtb;
using R = International;

constexpr int kGames = 10000;
constexpr int kPlies = 100;
constexpr int kTablePieces = 5;

std::string tables_dir() {
    const char* env = std::getenv("DTB_BENCH_TABLES");
    return env ? env : "data/tb/international";
}

// kGames games of kPlies plies each, in the PDN of tournament files (tags, numbered moves, a
// result), from random 5-piece positions, played at random, a move after which the opponent must
// capture avoided when there is another (so that games last); a game that ends sooner is replaced
// by another. Every position of every game is in the tables' reach.
const std::string& games_text() {
    static const std::string text = [] {
        std::vector<SliceIndex<R>> slices;
        for (const Material& m : all_materials<R>(kTablePieces))
            if (m.pieces() == kTablePieces) slices.emplace_back(m);
        std::mt19937_64 rng(45);
        std::string out;
        MoveList legal, replies;
        int made = 0;
        while (made < kGames) {
            const auto& s = slices[rng() % slices.size()];
            const Position start = s.unrank(rng() % s.size());
            Position p = start;
            std::string moves;
            int ply = 0;
            for (; ply < kPlies; ++ply) {
                generate_moves<R>(p, legal);
                if (legal.empty()) break;
                size_t pick = rng() % legal.size();
                for (size_t k = 0; k < legal.size(); ++k) {
                    const size_t i = (pick + k) % legal.size();
                    generate_moves<R>(make_move(p, legal[i]), replies);
                    if (!replies.empty() && !replies[0].is_capture()) {
                        pick = i;
                        break;
                    }
                }
                const Move m = legal[pick];
                if (ply % 2 == 0) moves += std::to_string(ply / 2 + 1) + ". ";
                moves += move_to_string<R>(m, legal) + (ply % 10 == 9 ? "\n" : " ");
                p = make_move(p, m);
            }
            if (ply < kPlies) continue;
            static const char* results[] = {"2-0", "1-1", "0-2"};
            out += "[Event \"Bench " + std::to_string(made) +
                   "\"]\n[White \"A\"]\n[Black \"B\"]\n"
                   "[GameType \"20\"]\n[FEN \"" +
                   to_fen<R>(start) + "\"]\n" + moves + results[rng() % 3] + "\n\n";
            ++made;
        }
        return out;
    }();
    return text;
}

void BM_ReadAndJudgePdn(benchmark::State& state) {
    probe::Options o;
    o.directories = {tables_dir()};
    o.metrics = probe::kAllMetrics | probe::kRuleMetrics;
    if (const char* mb = std::getenv("DTB_BENCH_CACHE_MB")) o.cache_mb = static_cast<std::size_t>(std::atoll(mb));
    auto tb = probe::Tablebase::open(o);
    if (!tb || tb->max_pieces() < kTablePieces) {
        state.SkipWithError(
            ("tables: " + (tb ? std::string("fewer than 5 pieces") : tb.error()) + " (set DTB_BENCH_TABLES)").c_str());
        return;
    }
    const adjudicate::Adjudicator judge(*tb, CountingRules::fmjd);
    adjudicate::GameTables tables;
    tables.international = &*tb;
    tables.judge = &judge;
    tables.positions = state.range(0) != 0;  // 0: the verdicts (the text report); 1: also every ply (JSON)
    const std::string& text = games_text();
    std::int64_t plies = 0, judged = 0;
    for (auto _ : state) {
        const std::vector<PdnGame> games = read_pdn(text);
        for (const PdnGame& g : games) {
            const adjudicate::GameCheck c = adjudicate::check_game(g, tables);
            plies += c.plies;
            judged += c.first.ply >= 0;
            benchmark::DoNotOptimize(c.verdict);
        }
        if (static_cast<int>(games.size()) != kGames) state.SkipWithError("games lost in reading");
    }
    state.SetItemsProcessed(state.iterations() * kGames);
    state.counters["plies_per_game"] = static_cast<double>(plies) / static_cast<double>(state.iterations() * kGames);
    state.counters["judged_fraction"] = static_cast<double>(judged) / static_cast<double>(state.iterations() * kGames);
    state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ReadAndJudgePdn)->ArgName("positions")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
