// The C interface (include/dtb/dtb.h) over Tablebase. Every entry point catches everything: no
// exception crosses into C.
#include <cstring>
#include <new>
#include <string>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/dtb.h"
#include "dtb/probe/probe.hpp"
#include "dtb/solve/prover.hpp"

struct dtb_tablebase {
    dtb::probe::Tablebase tb;
};

namespace {

using dtb::probe::Result;
using dtb::probe::Status;

#ifdef DTB_PROJECT_VERSION_MAJOR
static_assert(DTB_VERSION_MAJOR == DTB_PROJECT_VERSION_MAJOR && DTB_VERSION_MINOR == DTB_PROJECT_VERSION_MINOR &&
                  DTB_VERSION_PATCH == DTB_PROJECT_VERSION_PATCH,
              "include/dtb/dtb.h: DTB_VERSION_* must match project(dtb VERSION ...) in CMakeLists.txt");
#endif
static_assert(DTB_LOSS == static_cast<int>(dtb::Wdl::loss) && DTB_WIN == static_cast<int>(dtb::Wdl::win));
static_assert(DTB_WDL == dtb::probe::kWdl && DTB_DTW == dtb::probe::kDtw && DTB_DTC == dtb::probe::kDtc);

std::string& last_error() {
    thread_local std::string message;
    return message;
}

int fail(int code, std::string message) {
    last_error() = std::move(message);
    return code;
}

int code_of(const dtb_tablebase* h, const Result& r) {
    switch (r.status) {
        case Status::ok:
            return DTB_OK;
        case Status::missing:
            return fail(DTB_MISSING, h->tb.explain(r));
        case Status::corrupt:
            return fail(DTB_CORRUPT, h->tb.explain(r));
        case Status::illegal:
            return fail(DTB_ILLEGAL, h->tb.explain(r));
        case Status::not_cached:
            return fail(DTB_NOT_CACHED, h->tb.explain(r));
    }
    return fail(DTB_INTERNAL, "unknown status");
}

// Runs f, turning exceptions into result codes.
template <class F>
int guarded(F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return fail(DTB_NO_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(DTB_INTERNAL, e.what());
    } catch (...) {
        return fail(DTB_INTERNAL, "unknown exception");
    }
}

template <class F>
int with_fen(const dtb_tablebase* h, const char* fen, F&& f) {
    if (!h || !fen) return fail(DTB_BAD_ARGUMENT, "NULL handle or FEN");
    return guarded([&]() -> int {
        auto p = h->tb.parse_fen(fen);
        if (!p) return fail(DTB_BAD_ARGUMENT, p.error());
        return f(*p);
    });
}

// The library's bit for each dense square index, by variant.
template <class G>
dtb::Bitboard from_dense(std::uint64_t dense) {
    dtb::Bitboard b = 0;
    for (int d = 0; d < G::kNumSquares; ++d)
        if (dense >> d & 1) b |= dtb::bit(G::bit_of_dense(d));
    return b;
}

}  // namespace

namespace {
// A distance as the C interface gives it: -1 for a draw (which has none) and for one not known.
int distance_of(dtb::Wdl wdl, int plies) {
    return wdl == dtb::Wdl::draw || plies < 0 ? -1 : plies;
}
}  // namespace

extern "C" {

int dtb_version(void) {
    return DTB_VERSION;
}
const char* dtb_version_string(void) {
    return DTB_VERSION_STRING;
}

const char* dtb_result_string(int code) {
    switch (code) {
        case DTB_OK:
            return "ok";
        case DTB_MISSING:
            return "missing";
        case DTB_CORRUPT:
            return "corrupt";
        case DTB_ILLEGAL:
            return "illegal";
        case DTB_NOT_CACHED:
            return "not cached";
        case DTB_BAD_ARGUMENT:
            return "bad argument";
        case DTB_NO_MEMORY:
            return "out of memory";
        case DTB_INTERNAL:
            return "internal error";
        default:
            return "unknown result code";
    }
}

const char* dtb_last_error(void) {
    return last_error().c_str();
}

int dtb_open(const char* directories, int variant, unsigned cache_mb, unsigned flags, dtb_tablebase** out) {
    if (!directories || !out) return fail(DTB_BAD_ARGUMENT, "NULL directories or output pointer");
    if (variant != DTB_VARIANT_INTERNATIONAL && variant != DTB_VARIANT_TURKISH)
        return fail(DTB_BAD_ARGUMENT, "unknown variant " + std::to_string(variant));
    return guarded([&]() -> int {
        dtb::probe::Options o;
        o.variant = static_cast<dtb::VariantId>(variant);
        o.cache_mb = cache_mb;
        o.metrics = flags & DTB_DISTANCES;
        // Turkish draughts has no counting rules: DTB_RULE_TABLES (in DTB_ALL) asks nothing there.
        if ((flags & DTB_RULE_TABLES) && o.variant == dtb::VariantId::international)
            o.metrics |= dtb::probe::kRuleMetrics;
        std::string dirs = directories;
        for (std::size_t start = 0; start <= dirs.size();) {
            const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
            if (colon > start) o.directories.emplace_back(dirs.substr(start, colon - start));
            start = colon + 1;
        }
        auto tb = dtb::probe::Tablebase::open(o);
        if (!tb) return fail(DTB_MISSING, tb.error());
        *out = new dtb_tablebase{std::move(tb.value())};
        return DTB_OK;
    });
}

void dtb_close(dtb_tablebase* tb) {
    delete tb;
}

int dtb_probe_wdl(const dtb_tablebase* tb, const char* fen, int* wdl) {
    if (!wdl) return fail(DTB_BAD_ARGUMENT, "NULL output pointer");
    return with_fen(tb, fen, [&](const dtb::Position& p) {
        const Result r = tb->tb.probe_wdl(p);
        if (r.ok()) *wdl = static_cast<int>(r.wdl);
        return code_of(tb, r);
    });
}

int dtb_probe_dtw(const dtb_tablebase* tb, const char* fen, int* wdl, int* dtw) {
    if (!wdl || !dtw) return fail(DTB_BAD_ARGUMENT, "NULL output pointer");
    return with_fen(tb, fen, [&](const dtb::Position& p) {
        const Result r = tb->tb.probe_dtw(p);
        if (r.ok()) *wdl = static_cast<int>(r.wdl), *dtw = distance_of(r.wdl, r.dtw);
        return code_of(tb, r);
    });
}

int dtb_probe_dtc(const dtb_tablebase* tb, const char* fen, int* wdl, int* dtc) {
    if (!wdl || !dtc) return fail(DTB_BAD_ARGUMENT, "NULL output pointer");
    return with_fen(tb, fen, [&](const dtb::Position& p) {
        const Result r = tb->tb.probe_dtc(p);
        if (r.ok()) *wdl = static_cast<int>(r.wdl), *dtc = distance_of(r.wdl, r.dtc);
        return code_of(tb, r);
    });
}

}  // extern "C"

namespace {

// The library's position of a dtb_position; false when a bit lies outside the board.
bool to_position(const dtb_tablebase* tb, const dtb_position* pos, dtb::Position& out) {
    const auto convert = [&](auto variant) {
        using G = typename decltype(variant)::Geometry;
        const std::uint64_t all = G::kNumSquares == 64 ? ~0ULL : (1ULL << G::kNumSquares) - 1;
        dtb::Position p;
        p.pieces[0] = from_dense<G>(pos->white);
        p.pieces[1] = from_dense<G>(pos->black);
        p.kings = from_dense<G>(pos->kings);
        p.side_to_move = pos->side_to_move == 0 ? dtb::Color::white : dtb::Color::black;
        const bool in_range = ((pos->white | pos->black | pos->kings) & ~all) == 0;
        return std::pair{p, in_range};
    };
    const auto [p, in_range] = dtb::with_variant(tb->tb.variant(), convert);
    out = p;
    return in_range;
}

}  // namespace

extern "C" {

int dtb_probe_position(const dtb_tablebase* tb, const dtb_position* pos, unsigned what, dtb_value* out) {
    if (!tb || !pos || !out) return fail(DTB_BAD_ARGUMENT, "NULL handle, position or output");
    if (pos->side_to_move != 0 && pos->side_to_move != 1)
        return fail(DTB_BAD_ARGUMENT, "side_to_move must be 0 (White) or 1 (Black)");
    return guarded([&]() -> int {
        dtb::Position p;
        if (!to_position(tb, pos, p)) return fail(DTB_ILLEGAL, "illegal position: a bit outside the board's squares");
        const auto access = (what & DTB_CACHE_ONLY) ? dtb::probe::Access::cache_only : dtb::probe::Access::load;
        const Result r = tb->tb.probe(p, what & DTB_DISTANCES, access);
        if (r.ok()) *out = dtb_value{static_cast<int>(r.wdl), distance_of(r.wdl, r.dtw), distance_of(r.wdl, r.dtc)};
        return code_of(tb, r);
    });
}

int dtb_probe_rule_wdl(const dtb_tablebase* tb, const dtb_position* pos, const dtb_counters* counters, int rules,
                       unsigned flags, int* wdl) {
    if (!tb || !pos || !counters || !wdl) return fail(DTB_BAD_ARGUMENT, "NULL handle, position, counters or output");
    if (pos->side_to_move != 0 && pos->side_to_move != 1)
        return fail(DTB_BAD_ARGUMENT, "side_to_move must be 0 (White) or 1 (Black)");
    if (rules != DTB_RULES_NONE && rules != DTB_RULES_FMJD && rules != DTB_RULES_FFJD)
        return fail(DTB_BAD_ARGUMENT, "unknown rule set " + std::to_string(rules));
    if (counters->reversible < 0 || counters->endgame < -1 || counters->small < -1)
        return fail(DTB_BAD_ARGUMENT,
                    "counters: reversible must be 0 or more; endgame and small 0 or more, or -1 when absent");
    return guarded([&]() -> int {
        dtb::Position p;
        if (!to_position(tb, pos, p)) return fail(DTB_ILLEGAL, "illegal position: a bit outside the board's squares");
        dtb::adjudicate::Counters k;
        k.reversible = counters->reversible;
        if (counters->endgame >= 0) k.endgame = counters->endgame;
        if (counters->small >= 0) k.small = counters->small;
        const auto access = (flags & DTB_CACHE_ONLY) ? dtb::probe::Access::cache_only : dtb::probe::Access::load;
        const dtb::adjudicate::Adjudicator judge(tb->tb, static_cast<dtb::CountingRules>(rules));
        const Result r = judge.probe_wdl(p, k, access);
        if (r.ok()) *wdl = static_cast<int>(r.wdl);
        return code_of(tb, r);
    });
}

int dtb_best_move(const dtb_tablebase* tb, const char* fen, char* move, size_t size, int* wdl, int* dtw, int* dtc) {
    if (!move || size == 0) return fail(DTB_BAD_ARGUMENT, "no room for the move text");
    return with_fen(tb, fen, [&](const dtb::Position& p) -> int {
        std::optional<dtb::probe::MoveValue> best;
        const Result r = tb->tb.best_move(p, best);
        if (!r.ok()) return code_of(tb, r);
        const std::string text = best ? best->text : "";
        if (text.size() + 1 > size) return fail(DTB_BAD_ARGUMENT, "move text longer than the buffer");
        std::memcpy(move, text.c_str(), text.size() + 1);
        if (wdl) *wdl = static_cast<int>(r.wdl);
        if (dtw) *dtw = distance_of(r.wdl, r.dtw);
        if (dtc) *dtc = distance_of(r.wdl, r.dtc);
        return DTB_OK;
    });
}

int dtb_solve(const dtb_tablebase* tb, const char* fen, double max_seconds, unsigned long long max_nodes,
              unsigned memory_mb, int* answer, int* lower, int* upper, char* move, size_t size) {
    if (!answer || (!move && size != 0)) return fail(DTB_BAD_ARGUMENT, "NULL answer, or NULL move with a size");
    if (!(max_seconds >= 0) || (max_seconds == 0 && max_nodes == 0) || memory_mb == 0)
        return fail(DTB_BAD_ARGUMENT, "give a time or node limit, and memory_mb of 1 or more");
    return with_fen(tb, fen, [&](const dtb::Position& p) -> int {
        dtb::solve::ProverOptions options;
        options.max_seconds = max_seconds;
        options.max_nodes = max_nodes;
        options.memory_mb = memory_mb;
        auto prover = dtb::solve::Prover::create(tb->tb, options);
        if (!prover) return fail(DTB_BAD_ARGUMENT, prover.error());
        const dtb::solve::SolveResult r = prover.value().solve(p);
        if (!r.ok()) return code_of(tb, r.status);
        const std::string text = r.best_move ? r.best_move->text : "";
        if (move && text.size() + 1 > size) return fail(DTB_BAD_ARGUMENT, "move text longer than the buffer");
        if (move) std::memcpy(move, text.c_str(), text.size() + 1);
        *answer = r.answer == dtb::solve::Answer::unresolved ? DTB_UNRESOLVED : static_cast<int>(r.lower);
        if (lower) *lower = static_cast<int>(r.lower);
        if (upper) *upper = static_cast<int>(r.upper);
        return DTB_OK;
    });
}

}  // extern "C"
