// The probe library: values of positions from the tables `dtb gen` writes.
//
//   auto tb = dtb::probe::Tablebase::open({.directories = {"data/tb/international"}});
//   if (!tb) { /* tb.error() says why */ }
//   dtb::probe::Result r = tb->probe_dtw(position);   // either side to move
//   if (r.ok()) use(r.wdl, r.dtw); else report(tb->explain(r));
//
// Values (RULES.md 3) are from the side to move's point of view: WDL, DTW (plies to the end of
// the game with best play), DTC (plies to the next capture or man move). Draws have distance 0.
//
// What the library does for the caller:
//  - Black to move is answered through the colour-reversed position (tables hold White to move).
//  - Capture resolution: when the side to move must capture, the value comes from the capture
//    moves (which all lead to smaller slices, recursively), never from the table entry, so the
//    generator may store anything there. A decided capture position has DTC 1 (every capture is
//    a conversion). A capture of the last piece wins with DTW 1.
//  - Derived WDL tables (docs/FORMAT.md): where the generator stored WDL for one side to move
//    of a material only, a WDL probe of the other side is one ply of search into the stored
//    side's table (about 5 us with warm blocks against 0.1 us for a table read, measured on the
//    4-piece slices; BENCHMARKS.md, "Derived WDL"); a probe
//    that also asks for DTW takes WDL from DTW's parity instead, with no search.
//  - Tables are found by name (<slice>.<metric>, docs/FORMAT.md) in the directories given,
//    the first directory that holds a file wins; a file is opened on first use only, and only
//    for the metrics asked for at open (a WDL-only handle never opens a .dtw or .dtc file).
//    The directories are listed once, at open: files added later are not seen by that handle.
//  - Blocks are decompressed into a cache under the configured budget (CLOCK eviction, an
//    approximation of least recently used; probe/cache.hpp).
//  - Nothing is printed, nothing exits; every failure is a Result status (with explain() for a
//    message), and a corrupt table yields Status::corrupt, never a wrong value.
//    Members do not throw, except std::bad_alloc when memory runs out (the C interface turns
//    that into a result code too).
//
// Thread safety: a Tablebase is safe to use from any number of threads at once through its const
// members (every probe member is const). Tables are opened under std::call_once per table. The
// block cache (probe/cache.hpp) is sharded: a hit takes no lock, the reading thread only
// announces itself in its own slot of the cache (epoch-based reclamation keeps an evicted block
// alive until no reader can hold it; up to 128 threads per handle read this way, further ones
// lock the shard for each lookup); a miss, an insert, an eviction hold that shard's mutex, and
// decompression happens outside any lock. There is no global state (only per-thread scratch:
// move lists, decode buffers, the list of caches the thread has a slot in): two handles share
// nothing. Moving or destroying a handle while another thread uses it is not allowed.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/index/material.hpp"
#include "dtb/probe/cache.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/move.hpp"
#include "dtb/rules/position.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::probe {

// Metrics, as flags: which tables a handle may open, which values a probe asks for.
inline constexpr unsigned kWdl = 1u << 0;
inline constexpr unsigned kDtw = 1u << 1;
inline constexpr unsigned kDtc = 1u << 2;
inline constexpr unsigned kAllMetrics = kWdl | kDtw | kDtc;
// Rule-aware tables (international; adjudicate/adjudicator.hpp reads them): a handle opens them only
// when asked for at open.
inline constexpr unsigned kFmjd = 1u << 3;
inline constexpr unsigned kFfjd = 1u << 4;
inline constexpr unsigned kFfjd16 = 1u << 5;
inline constexpr unsigned kRuleMetrics = kFmjd | kFfjd | kFfjd16;

struct Options {
    std::vector<std::filesystem::path> directories;  // searched in order; at least one
    VariantId variant = VariantId::international;
    std::size_t cache_mb = 64;       // decompressed-block cache budget
    std::size_t cache_bytes = 0;     // when non-zero, the budget in bytes (overrides cache_mb)
    unsigned metrics = kAllMetrics;  // which tables may be opened; kWdl is always included
    int cache_shards = 0;            // 0: chosen from the budget (a power of two, at most 64)
};

enum class Status : std::uint8_t {
    ok,
    missing,     // a table needed is not available (no file, or its metric not enabled at open)
    corrupt,     // a table needed failed a check (checksum, size, header, other rules/variant)
    illegal,     // the position cannot be probed (see Result::reason): overlapping pieces, a man
                 // on its promotion row, the game already over, more pieces than a side may have
    not_cached,  // cache-only probe: a block (or table) needed is not in memory yet
};
std::string_view to_string(Status);

// Whether a probe may read from disk (Access::load, the default) or must answer from memory only
// (Access::cache_only: for engine search; answers Status::not_cached instead of reading).
enum class Access : std::uint8_t { load, cache_only };

struct Result {
    Status status = Status::ok;
    Wdl wdl = Wdl::draw;
    int dtw = -1;  // plies; 0 for a draw; -1 when not asked for
    int dtc = -1;  // plies; 0 for a draw; -1 when not asked for
    // probe_table only: the stored entry (for rule tables a threshold value code).
    std::uint16_t entry = 0;
    // On missing / corrupt: the table concerned (its slice with White to move, and metric).
    Material slice{};
    format::Metric metric = format::Metric::wdl;
    // On missing and illegal: a short static text ("table file not found", "a man on its
    // promotion row", ...); on corrupt, when the tables are sound but do not fit together (a
    // derived WDL table behind another), why; nullptr otherwise.
    const char* reason = nullptr;

    bool ok() const { return status == Status::ok; }
};

// A legal move with what it leads to, seen by the side that plays it: wdl is that side's result,
// dtw / dtc its distances when it plays this move (1 + those of the position after the move; the
// DTC of a conversion, or of a move that ends the game, is 1). -1: not asked for; 0 for a draw.
struct MoveValue {
    Move move;
    std::string text;  // notation, unambiguous among the legal moves ("32-28", "28x19x10")
    Wdl wdl = Wdl::draw;
    int dtw = -1;
    int dtc = -1;
};

// True when a is a better move than b for the side that plays them: wins by smaller DTW, then
// draws, then losses by larger DTW; ties by DTC (wins: smaller; losses: larger), then by the
// square numbers of the notation ("2-7" before "11-6").
bool better_move(const MoveValue& a, const MoveValue& b);

// A position's value, its moves best first and its principal variation (best moves to the end
// of the game; empty for a draw): what `dtb probe` prints.
struct Analysis {
    Result result;
    std::vector<MoveValue> moves;
    std::vector<MoveValue> pv;
};

namespace detail {
class Engine;
}

class Tablebase {
  public:
    // Fails when no directory is given, a directory does not exist, or none holds a table of the
    // enabled metrics. Opens no table file (see the comment at the top).
    static Expected<Tablebase> open(const Options& options);

    Tablebase(Tablebase&&) noexcept;
    Tablebase& operator=(Tablebase&&) noexcept;
    ~Tablebase();

    VariantId variant() const;
    unsigned metrics() const;  // the metrics enabled at open
    int max_pieces() const;    // pieces of the largest slice found

    // Values for the side to move of p (either colour). metrics: any combination of kWdl, kDtw,
    // kDtc (WDL is always filled in).
    Result probe(const Position& p, unsigned metrics, Access access = Access::load) const;
    Result probe_wdl(const Position& p, Access access = Access::load) const { return probe(p, kWdl, access); }
    Result probe_dtw(const Position& p, Access access = Access::load) const { return probe(p, kWdl | kDtw, access); }
    Result probe_dtc(const Position& p, Access access = Access::load) const { return probe(p, kWdl | kDtc, access); }

    // The entry of p in one table, as stored on disk: what adjudication reads from the rule
    // tables. Entries the generator leaves "don't care" are resolved: in the fmjd and ffjd tables
    // those of capture positions of material in no counting class (from the captures, whose
    // counters restart; probe/rule_captures.hpp). In WDL, DTW and DTC tables a capture position's
    // entry is not meaningful: probe() resolves those. p: either side to move. A derived WDL
    // table stores nothing: its entry is the position's WDL, found by search.
    Result probe_table(const Position& p, format::Metric metric, Access access = Access::load) const;

    // Every legal move of p with its value, best first (better_move). The Result is p's own
    // value; on failure `out` is empty. metrics: what to fill in (default: all enabled).
    Result moves(const Position& p, std::vector<MoveValue>& out, unsigned metrics = 0) const;
    // The best move (the quickest win, the longest loss); nullopt when p has no legal move (then
    // p is lost in 0). Needs DTW: a handle opened without it gets Status::missing.
    Result best_move(const Position& p, std::optional<MoveValue>& out) const;
    // Best moves of both sides from p to the end of the game; empty for a draw or a position
    // without moves. Needs DTW. Each move's text is unambiguous in the position it is played in.
    Result principal_variation(const Position& p, std::vector<MoveValue>& out) const;
    Analysis analyse(const Position& p) const;

    // A message for a failed Result: which table, which file, what is wrong.
    std::string explain(const Result& r) const;

    // FEN in this handle's variant (rules/fen.hpp).
    Expected<Position> parse_fen(std::string_view fen) const;
    std::string to_fen(const Position& p) const;

    CacheStats cache_stats() const;
    // Table files opened so far, by metric (index: format::Metric).
    std::array<int, format::kNumMetrics> tables_opened() const;

  private:
    explicit Tablebase(std::unique_ptr<detail::Engine> engine);
    std::unique_ptr<detail::Engine> engine_;
};

}  // namespace dtb::probe
