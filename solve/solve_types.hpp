// What a proof search is asked (ProverOptions) and what it answers (SolveResult): the public
// types of the solver (solve/prover.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/move.hpp"

namespace dtb::solve {

// The answer for the side to move. unresolved: the budget ran out first (SolveResult::lower and
// upper say what was proven all the same).
enum class Answer : std::uint8_t { win, draw, loss, unresolved };
std::string_view to_string(Answer a);

// Where the answer comes from: the tables (the root is inside them), the root itself (no legal
// move; under counting rules a limit already reached), or a proof search.
enum class AnswerSource : std::uint8_t { tables, terminal, search };
std::string_view to_string(AnswerSource s);

// Why a search stopped before both questions were answered (cancelled: ProverOptions::stop).
enum class StopReason : std::uint8_t { none, nodes, time, depth, cancelled };
std::string_view to_string(StopReason s);

// How a new node's proof and disproof numbers are guessed before it is searched (measured in
// BENCHMARKS.md, "Solver").
enum class InitialNumbers : std::uint8_t {
    uniform,   // 1 and 1 (plain df-pn)
    mobility,  // the number of moves of the side to move: the more moves, the harder to refute
    material,  // mobility, scaled by the material balance (kings count three men)
};

// Progress of a long search, handed to ProverOptions::progress every few thousand nodes.
struct Progress {
    std::uint64_t nodes = 0;
    std::uint64_t probes = 0;
    double seconds = 0;
    bool proving_win = true;  // which question: "does the side to move win" or "does it lose"
    std::uint32_t root_pn = 0, root_dn = 0;
};

struct ProverOptions {
    CountingRules rules = CountingRules::none;  // fmjd / ffjd: international, with rule tables
    adjudicate::Counters counters;              // the root's counters under rules
    std::uint64_t max_nodes = 0;                // 0: no limit
    double max_seconds = 0;                     // 0: no limit
    std::size_t memory_mb = 256;                // transposition table
    int max_depth = 500;                        // plies from the root; deeper lines stay open
    double epsilon = 0.25;                      // the 1+epsilon trick (Pawlewicz, Lew); 0: plain
    InitialNumbers initial = InitialNumbers::mobility;
    // Re-read the open children's numbers from the transposition table at every step of a node
    // (they move when a transposition is searched elsewhere); else only when a child is made.
    bool refresh_children = true;
    std::function<void(const Progress&)> progress;  // may be empty
    std::uint64_t progress_every = 1 << 16;         // nodes between two progress calls
    // Another thread may ask a running solve to end: it is polled with the time limit (every
    // few hundred steps) and ends the solve unresolved with StopReason::cancelled (what was
    // proven stays proven). Also ends proof().
    std::stop_token stop;
};

// A move with its notation in the position it is played in.
struct SolveMove {
    Move move;
    std::string text;
};

struct SolveResult {
    probe::Result status;  // ok, or why there is no answer (a table missing: Tablebase::explain)
    Answer answer = Answer::unresolved;
    AnswerSource source = AnswerSource::search;
    // What is proven for the side to move: the value lies in [lower, upper] (loss <= draw <= win).
    Wdl lower = Wdl::loss;
    Wdl upper = Wdl::win;
    std::optional<SolveMove> best_move;  // a move that keeps the answer (win, draw: proven; loss:
                                         // the longest resistance the search saw)
    std::vector<SolveMove> pv;           // from the root, into the tables as far as the proof fixes it
    std::uint64_t nodes = 0;             // positions expanded or evaluated
    std::uint64_t probes = 0;            // table probes
    int max_pieces = 0;                  // most pieces of a position met
    double seconds = 0;
    StopReason stop = StopReason::none;
    bool ok() const { return status.ok(); }
};

}  // namespace dtb::solve
