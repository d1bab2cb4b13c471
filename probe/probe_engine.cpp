// The per-variant probe engine: table slots opened lazily, block reads through the cache, and
// capture resolution. See probe/probe.hpp for the contract.
//
// Layout in memory. Every slice found at open gets a SliceSlot (its SliceIndex, built on first
// use, and one TableSlot per metric). A table is opened at most once, under std::call_once; the
// flag `ready` (release after the open, acquire before use) lets later probes, and cache-only
// probes that must not open anything, skip call_once. Slices are found through a dense array
// indexed by the material's (wk, wm, bk, bm) digits in base max_pieces + 1.
#include "dtb/probe/probe_engine.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <map>
#include <mutex>
#include <optional>

#include "dtb/index/slice_index.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/rule_captures.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"

namespace dtb::probe::detail {

namespace {

using format::Metric;

constexpr int kMetricCount = format::kNumMetrics;
constexpr unsigned flag_of(int metric) {
    return 1u << metric;
}
// Deep enough for any chain of captures (each one removes at least one piece), with one more
// ply per derived WDL table on the way (never two in a row: its successors store their WDL).
constexpr int kMaxCaptureDepth = 64;

Result failure(Status s, const Material& m, Metric metric, const char* reason) {
    Result r;
    r.status = s;
    r.slice = m;
    r.metric = metric;
    r.reason = reason;
    return r;
}

Result illegal(const char* reason) {
    Result r;
    r.status = Status::illegal;
    r.reason = reason;
    return r;
}

Result decided(Wdl w, int dtw, int dtc, unsigned metrics) {
    Result r;
    r.wdl = w;
    r.dtw = (metrics & kDtw) ? dtw : -1;
    r.dtc = (metrics & kDtc) ? dtc : -1;
    return r;
}

template <class R>
class EngineImpl final : public Engine {
    using G = typename R::Geometry;

    struct SliceSlot;
    struct TableSlot {
        std::filesystem::path path;  // empty: no file in any directory (or metric not enabled)
        bool enabled = false;
        std::uint32_t id = 0;  // cache key
        std::once_flag once;
        std::atomic<bool> ready{false};
        // Written once inside call_once, read after `ready`:
        Status status = Status::missing;
        std::string error;
        std::optional<format::TableReader> reader;
        int bits = 16;
        std::uint32_t block_entries = 1;
        int block_shift = -1;  // log2(block_entries) when a power of two
        bool derived = false;  // a derived WDL table: values by one ply of search
        // The last block error (rare path, under its own mutex).
        mutable std::mutex error_mutex;
        mutable std::string block_error;
    };
    struct SliceSlot {
        Material material;
        std::once_flag index_once;
        std::optional<SliceIndex<R>> index;
        std::string index_error;
        std::array<TableSlot, kMetricCount> tables;
    };

  public:
    static Expected<std::unique_ptr<Engine>> create(const Options& o) {
        auto e = std::unique_ptr<EngineImpl>(new EngineImpl(o));
        if (o.directories.empty()) return Error{"no table directory given"};
        for (const auto& dir : o.directories) {
            std::error_code ec;
            if (!std::filesystem::is_directory(dir, ec)) return Error{"no table directory " + dir.string()};
        }
        // File names only: no table file is opened or even looked at beyond its name here.
        std::map<Material, std::array<std::filesystem::path, kMetricCount>> found;
        for (const auto& dir : o.directories) {
            std::error_code ec;
            for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
                const std::filesystem::path name = it->path().filename();
                int metric = -1;
                for (int mi = 0; mi < kMetricCount; ++mi)
                    if ((e->metrics_ & flag_of(mi)) &&
                        name.extension() == "." + std::string(format::metric_name(Metric(mi))))
                        metric = mi;
                if (metric < 0) continue;
                const auto m = Material::parse(name.stem().string());
                if (!m || !material_fits<R>(*m) || m->pieces() > kMaxTablePieces) continue;
                auto& paths = found[*m];
                if (paths[metric].empty()) paths[metric] = it->path();  // the first folder wins
            }
            if (ec) return Error{"cannot list " + dir.string() + ": " + ec.message()};
        }
        if (found.empty()) {
            std::string dirs;
            for (const auto& d : o.directories) dirs += (dirs.empty() ? "" : ", ") + d.string();
            return Error{"no " + std::string(R::kName) + " tables in " + dirs};
        }
        for (const auto& f : found) e->max_pieces_ = std::max(e->max_pieces_, f.first.pieces());
        e->base_ = e->max_pieces_ + 1;
        e->slot_of_code_.assign(static_cast<std::size_t>(e->base_ * e->base_ * e->base_ * e->base_), -1);
        for (const auto& [m, paths] : found) {
            auto s = std::make_unique<SliceSlot>();
            s->material = m;
            const auto n = static_cast<std::uint32_t>(e->slices_.size());
            for (int mi = 0; mi < kMetricCount; ++mi) {
                TableSlot& t = s->tables[mi];
                t.path = paths[mi];
                t.enabled = (e->metrics_ & flag_of(mi)) != 0;
                t.id = n * kMetricCount + static_cast<std::uint32_t>(mi);
            }
            e->slot_of_code_[e->code(m)] = static_cast<std::int32_t>(n);
            e->slices_.push_back(std::move(s));
        }
        return std::unique_ptr<Engine>(std::move(e));
    }

    VariantId variant() const override { return R::kId; }
    unsigned metrics() const override { return metrics_; }
    int max_pieces() const override { return max_pieces_; }

    Result probe(const Position& p, unsigned metrics, Access access) const override {
        if (const char* why = illegal_reason(p)) return illegal(why);
        metrics = (metrics & kAllMetrics) | kWdl;  // rule tables are read by probe_table only
        const Position q = p.side_to_move == Color::white ? p : reversed<G>(p);
        return probe_white(q, metrics, access, 0);
    }

    Result probe_table(const Position& p, Metric metric, Access access) const override {
        if (const char* why = illegal_reason(p)) return illegal(why);
        const Position q = p.side_to_move == Color::white ? p : reversed<G>(p);
        return table_white(q, metric, access, 0);
    }

    Result moves(const Position& p, std::vector<MoveValue>& out, unsigned metrics) const override {
        out.clear();
        metrics = ((metrics == 0 ? metrics_ : metrics) & kAllMetrics) | kWdl;
        const Result own = probe(p, metrics, Access::load);
        if (!own.ok()) return own;
        MoveList legal;
        generate_moves<R>(p, legal);
        out.reserve(legal.size());
        for (const Move& m : legal) {
            const Result after = probe(make_move(p, m), metrics, Access::load);
            if (!after.ok()) {
                out.clear();
                return after;
            }
            MoveValue v;
            v.move = m;
            v.text = move_to_string<R>(m, legal);
            v.wdl = flip(after.wdl);
            const bool draw = after.wdl == Wdl::draw;
            if (metrics & kDtw) v.dtw = draw ? 0 : after.dtw + 1;
            if (metrics & kDtc) {
                const bool conversion = m.is_capture() || !m.by_king;
                v.dtc = draw ? 0 : conversion ? 1 : after.dtc + 1;
            }
            out.push_back(std::move(v));
        }
        return own;
    }

    std::string explain(const Result& r) const override {
        const std::string table = r.slice.name() + "." + std::string(format::metric_name(r.metric));
        switch (r.status) {
            case Status::ok:
                return "ok";
            case Status::illegal:
                return std::string("illegal position: ") + (r.reason ? r.reason : "not indexable");
            case Status::not_cached:
                return "not in the cache (cache-only probe): " + table;
            case Status::missing: {
                std::string dirs;
                for (const auto& d : options_.directories) dirs += (dirs.empty() ? "" : ", ") + d.string();
                return "table " + table + " not available (" + (r.reason ? r.reason : "missing") + ") in " + dirs;
            }
            case Status::corrupt: {
                // A reason of its own: a table that is fine in itself, in the wrong company.
                if (r.reason) return "table " + table + ": " + r.reason;
                const SliceSlot* s = slice_for(r.slice);
                if (!s) return "table " + table + " corrupt";
                const TableSlot& t = s->tables[static_cast<int>(r.metric)];
                if (t.ready.load(std::memory_order_acquire) && !t.error.empty()) return t.error;
                std::lock_guard lock(t.error_mutex);
                if (!t.block_error.empty()) return t.block_error;
                return "table " + table + " corrupt";
            }
        }
        return "unknown status";
    }

    Expected<Position> parse_fen(std::string_view fen) const override { return dtb::parse_fen<R>(fen); }
    std::string to_fen(const Position& p) const override { return dtb::to_fen<R>(p); }
    CacheStats cache_stats() const override { return cache_.stats(); }
    std::array<int, kMetricCount> tables_opened() const override {
        std::array<int, kMetricCount> n{};
        for (int mi = 0; mi < kMetricCount; ++mi) n[mi] = opened_[mi].load();
        return n;
    }

  private:
    // Slices with more pieces are never looked for (their index could not be built anyway).
    static constexpr int kMaxTablePieces = 16;

    explicit EngineImpl(const Options& o)
        : options_(o),
          metrics_((o.metrics & (kAllMetrics | kRuleMetrics)) | kWdl),
          cache_(o.cache_bytes ? o.cache_bytes : o.cache_mb * 1024 * 1024, o.cache_shards) {}

    std::size_t code(const Material& m) const {
        return static_cast<std::size_t>(((m.wk * base_ + m.wm) * base_ + m.bk) * base_ + m.bm);
    }
    SliceSlot* slice_for(const Material& m) const {
        if (m.wk >= base_ || m.wm >= base_ || m.bk >= base_ || m.bm >= base_) return nullptr;
        const std::int32_t s = slot_of_code_[code(m)];
        return s < 0 ? nullptr : slices_[static_cast<std::size_t>(s)].get();
    }

    // Why p cannot be probed, or nullptr.
    static const char* illegal_reason(const Position& p) {
        const Bitboard w = p.pieces[0], b = p.pieces[1];
        if (w & b) return "a square holds a piece of each colour";
        if ((w | b) & ~G::kPlayable) return "a piece stands off the playable squares";
        if (p.kings & ~(w | b)) return "a king bit without a piece";
        for (Color c : {Color::white, Color::black}) {
            if (p.men(c) & RulesOf<R>::promotion_row(c)) return "a man on its promotion row";
            if (p.men(c) & ~men_squares<R>(c)) return "a man on its own back row";
            if (popcount(p.of(c)) > R::kMaxPiecesPerSide) return "more pieces than a side may have";
        }
        if (p.of(~p.side_to_move) == 0)
            return p.of(p.side_to_move) == 0 ? "no pieces on the board"
                                             : "the game is over: the side not to move has no pieces";
        return nullptr;
    }

    // q has White to move and is legal (see illegal_reason), except that White may have no piece.
    // derive_ok = false: q is a successor of a derived WDL position, so its own WDL must be stored
    // (it is, in any set the generator wrote; a mixed-up folder is reported as corrupt).
    Result probe_white(const Position& q, unsigned metrics, Access access, int depth, bool derive_ok = true) const {
        if (q.of(Color::white) == 0) return decided(Wdl::loss, 0, 0, metrics);
        if (has_capture<R>(q)) return search_captures(q, metrics, access, depth);
        return lookup(q, metrics, access, depth, derive_ok);
    }

    // The value of a position from its moves, by one ply of search: wins take the shortest win,
    // losses the longest loss. Two uses:
    //  - search_captures: the side to move must capture, so its captures decide (RULES.md 3);
    //    DTC is 1 for a decided position, since every capture is a conversion;
    //  - search_derived: all moves, WDL only (metrics = kWdl), of a position of a slice whose WDL
    //    table is derived. Its quiet moves reach tables that must store their WDL (derive_ok
    //    false for them); its captures, if any (probe_table on a capture position), may reach
    //    derived smaller slices.
    // Without DTW asked for, stops at the first winning move. `already` (or nullptr): moves whose
    // successors search_derived has read already (none of them lost; any_draw: one was a draw).
    Result search_captures(const Position& q, unsigned metrics, Access access, int depth) const {
        if (depth >= kMaxCaptureDepth) return illegal("captures nested too deeply");
        thread_local std::array<MoveList, kMaxCaptureDepth> scratch;
        MoveList& moves = scratch[static_cast<std::size_t>(depth)];
        MoveGenerator<R>(q, moves, CaptureMode::unique).generate_captures_only();
        return search_moves(q, moves, nullptr, false, metrics, access, depth);
    }

    // search_derived's batch: the successors it reads together (BlockCache::lookup_many).
    struct DerivedBatch {
        MoveList moves;
        std::vector<std::uint8_t> read;  // per move: 1 when its successor's entry was read here
        std::vector<std::size_t> move_of;
        std::vector<const TableSlot*> table;
        std::vector<std::uint64_t> index;
        std::vector<BlockKey> keys;
        std::vector<std::size_t> entry;
        std::vector<std::uint8_t> bits;
        std::vector<std::optional<std::uint16_t>> values;
        void clear() {
            move_of.clear();
            table.clear();
            index.clear();
            keys.clear();
            entry.clear();
            bits.clear();
        }
    };

    // A derived WDL side's value. Most moves are quiet and reach a position without a capture
    // in an opened table that stores its WDL: those successors are ranked first and their
    // entries read together, so that their cache misses (slot, block header, packed byte; some
    // 20-50 of them, scattered over the mirror's blocks) overlap instead of following one
    // another. An entry the batch did not find is read as any other (read_entry: asked under the
    // lock, else read from the file); every other move, and every entry that read fails (not
    // cached under Access::cache_only, an error), goes through probe_white as in
    // search_captures, which also reports errors. The cache's hit count includes the batched
    // entries after the first winning move, where the search used to stop.
    Result search_derived(const Position& q, Access access, int depth) const {
        if (depth >= kMaxCaptureDepth) return illegal("captures nested too deeply");
        thread_local std::array<DerivedBatch, kMaxCaptureDepth> scratch;
        DerivedBatch& b = scratch[static_cast<std::size_t>(depth)];
        generate_moves<R>(q, b.moves);
        b.read.assign(b.moves.size(), 0);
        b.clear();
        for (std::size_t k = 0; k < b.moves.size(); ++k) {
            if (b.moves[k].is_capture()) continue;
            const Position next = reversed<G>(make_move(q, b.moves[k]));
            if (has_capture<R>(next)) continue;
            const SliceSlot* s = slice_for(Material::of(next));
            if (!s) continue;
            const TableSlot& t = s->tables[static_cast<int>(Metric::wdl)];
            if (!t.enabled || !t.ready.load(std::memory_order_acquire) || t.status != Status::ok || t.derived) continue;
            const std::uint64_t index = s->index->rank(next);
            const auto [key, j] = entry_address(t, index);
            b.move_of.push_back(k);
            b.table.push_back(&t);
            b.index.push_back(index);
            b.keys.push_back(key);
            b.entry.push_back(j);
            b.bits.push_back(static_cast<std::uint8_t>(t.bits));
        }
        const std::size_t n = b.keys.size();
        b.values.resize(n);
        cache_.lookup_many(n, b.keys.data(), b.entry.data(), b.bits.data(), b.values.data());
        bool any_draw = false;
        for (std::size_t i = 0; i < n; ++i) {
            std::uint16_t v = 0;
            Status st = Status::ok;
            if (b.values[i])
                v = *b.values[i];
            else  // asked again under the lock, read from the file if absent (one miss per block read)
                st = read_entry(*b.table[i], b.index[i], access, v);
            if (st != Status::ok) continue;  // probe_white below meets the same and reports it
            if (v > 2) continue;             // likewise (corrupt)
            b.read[b.move_of[i]] = 1;
            if (static_cast<Wdl>(v) == Wdl::loss) return decided(Wdl::win, 0, 1, kWdl);
            any_draw |= static_cast<Wdl>(v) == Wdl::draw;
        }
        return search_moves(q, b.moves, b.read.data(), any_draw, kWdl, access, depth);
    }

    Result search_moves(const Position& q, const MoveList& moves, const std::uint8_t* already, bool any_draw_already,
                        unsigned metrics, Access access, int depth) const {
        // The successors' WDL decides; their DTW only when DTW is asked for.
        const unsigned sub = kWdl | (metrics & kDtw);
        bool any_win = false, any_draw = any_draw_already;
        int best_win = 1 << 30, worst_loss = -1;
        std::optional<Result> error;
        for (std::size_t k = 0; k < moves.size(); ++k) {
            if (already && already[k]) continue;
            const Position next = reversed<G>(make_move(q, moves[k]));
            const Result after = probe_white(next, sub, access, depth + 1, moves[k].is_capture());
            if (!after.ok()) {
                if (!error) error = after;
                continue;
            }
            if (after.wdl == Wdl::loss) {
                any_win = true;
                if (!(metrics & kDtw)) return decided(Wdl::win, 0, 1, metrics);
                best_win = std::min(best_win, after.dtw + 1);
            } else if (after.wdl == Wdl::draw) {
                any_draw = true;
            } else {
                worst_loss = std::max(worst_loss, after.dtw + 1);
            }
        }
        if (error) return *error;
        if (any_win) return decided(Wdl::win, best_win, 1, metrics);
        if (any_draw) return decided(Wdl::draw, 0, 0, metrics);
        return decided(Wdl::loss, worst_loss, 1, metrics);
    }

    // The entry of q (White to move, with a white piece) in one table; the fmjd and ffjd entries
    // that the generator leaves "don't care" (capture positions of material in no counting
    // class) resolved from the captures (probe/rule_captures.hpp).
    Result table_white(const Position& q, Metric metric, Access access, int depth) const {
        if constexpr (R::kCountingRules) {
            if ((metric == Metric::fmjd || metric == Metric::ffjd) && rule_captures_dont_care(Material::of(q)) &&
                has_capture<R>(q)) {
                if (depth >= kMaxCaptureDepth) return illegal("captures nested too deeply");
                thread_local std::array<MoveList, kMaxCaptureDepth> scratch;
                const CountingRules rules = metric == Metric::fmjd ? CountingRules::fmjd : CountingRules::ffjd;
                std::optional<Result> error;
                const ValueCode code =
                    rule_code_from_captures<R>(q, scratch[static_cast<std::size_t>(depth)], [&](const Position& next) {
                        if (error) return Wdl::draw;
                        const Result r = table_white(next, metric, access, depth + 1);
                        if (!r.ok()) error = r;
                        return r.ok() ? fresh_value(r.entry, count_class(Material::of(next), rules)) : Wdl::draw;
                    });
                if (error) return *error;
                Result r;
                r.entry = code;
                return r;
            }
        }
        return lookup(q, flag_of(static_cast<int>(metric)), access);
    }

    Result lookup(const Position& q, unsigned metrics, Access access, int depth = 0, bool derive_ok = true) const {
        const Material m = Material::of(q);
        SliceSlot* s = slice_for(m);
        if (!s) return failure(Status::missing, m, Metric::wdl, "table file not found");
        Result r;
        std::uint64_t index = 0;
        bool ranked = false;
        bool wdl_derived = false;
        for (int mi = 0; mi < kMetricCount; ++mi) {
            if (!(metrics & flag_of(mi))) continue;
            TableSlot& t = s->tables[mi];
            if (!t.enabled) return failure(Status::missing, m, Metric(mi), "metric not enabled at open");
            if (!t.ready.load(std::memory_order_acquire)) {
                if (access == Access::cache_only)
                    return failure(Status::not_cached, m, Metric(mi), "table not opened yet");
                std::call_once(t.once, [&] {
                    try {
                        open_table(*s, t, mi);
                    } catch (const std::exception& e) {  // bad_alloc, filesystem errors
                        t.status = Status::corrupt;
                        t.error = t.path.string() + ": cannot open: " + e.what();
                        t.ready.store(true, std::memory_order_release);
                    }
                });
            }
            if (t.status != Status::ok)
                return failure(t.status, m, Metric(mi), t.path.empty() ? "table file not found" : nullptr);
            if (t.derived) {  // WDL: from DTW below when that is read, else by search
                if (!derive_ok)
                    return failure(Status::corrupt, m, Metric(mi),
                                   "its WDL table is derived, yet a derived WDL table's moves lead to it (a folder "
                                   "mixing tables of different runs? regenerate both)");
                wdl_derived = true;
                continue;
            }
            if (!ranked) {
                index = s->index->rank(q);
                ranked = true;
            }
            std::uint16_t v = 0;
            if (Status st = read_entry(t, index, access, v); st != Status::ok)
                return failure(st, m, Metric(mi), nullptr);
            if (mi == static_cast<int>(Metric::wdl)) {
                if (v > 2) return failure(Status::corrupt, m, Metric(mi), nullptr);
                r.wdl = static_cast<Wdl>(v);
            } else if (mi == static_cast<int>(Metric::dtw)) {
                r.dtw = v;
            } else if (mi == static_cast<int>(Metric::dtc)) {
                r.dtc = v;
            }
            r.entry = v;
        }
        if (wdl_derived) {
            if (metrics & kDtw) {
                r.wdl = wdl_from_dtw<R>(static_cast<std::uint16_t>(r.dtw), [&] { return q; });
            } else {
                const Result searched = search_derived(q, access, depth);
                if (!searched.ok()) return searched;
                r.wdl = searched.wdl;
            }
            if (metrics == kWdl) r.entry = static_cast<std::uint16_t>(r.wdl);
        }
        return r;
    }

    // Index `index` of table t: its block's cache key, and its place in the block.
    static std::pair<BlockKey, std::size_t> entry_address(const TableSlot& t, std::uint64_t index) {
        const std::uint64_t block = t.block_shift >= 0 ? index >> t.block_shift : index / t.block_entries;
        return {BlockKey{t.id, block}, static_cast<std::size_t>(index - block * t.block_entries)};
    }

    Status read_entry(const TableSlot& t, std::uint64_t index, Access access, std::uint16_t& out) const {
        const auto [key, j] = entry_address(t, index);
        const std::uint64_t block = key.block;
        if (auto v = cache_.lookup(key, j)) {
            out = *v;
            return Status::ok;
        }
        if (access == Access::cache_only) return Status::not_cached;
        thread_local std::vector<std::uint16_t> values;
        values.resize(t.block_entries);
        if (format::Status st = t.reader->read_block_into(block, values.data()); !st) {
            std::lock_guard lock(t.error_mutex);
            t.block_error = st.error();
            return Status::corrupt;
        }
        const std::size_t n = t.reader->entries_in_block(block);
        out = cache_.insert(key, PackedBlock::pack(values.data(), n, t.bits), j);
        return Status::ok;
    }

    // Runs once per table (under call_once); publishes through `ready`.
    void open_table(SliceSlot& s, TableSlot& t, int mi) const {
        const auto finish = [&](Status st, std::string error) {
            t.status = st;
            t.error = std::move(error);
            if (st == Status::ok) opened_[mi].fetch_add(1);
            t.ready.store(true, std::memory_order_release);
        };
        const std::string name = format::file_name(s.material.name(), Metric(mi));
        if (t.path.empty()) return finish(Status::missing, "");
        std::call_once(s.index_once, [&] {
            try {
                s.index.emplace(s.material);
            } catch (const std::exception& e) {
                s.index_error = e.what();
            }
        });
        if (!s.index) return finish(Status::corrupt, t.path.string() + ": " + s.index_error);
        auto reader = format::TableReader::open(t.path, R::kId, rules_fingerprint<R>());
        if (!reader) return finish(Status::corrupt, reader.error());
        const format::TableInfo& info = reader->info();
        const std::string problem = format::header_problem<R>(info, s.material, Metric(mi), s.index->size());
        if (!problem.empty()) return finish(Status::corrupt, t.path.string() + ": corrupt: " + problem);
        t.derived = info.derived();
        t.bits = reader->value_bits();  // a rule table stored as exceptions: its thresholds' width
        t.block_entries = info.block_entries;
        t.block_shift = std::has_single_bit(info.block_entries) ? std::countr_zero(info.block_entries) : -1;
        t.reader.emplace(std::move(reader.value()));
        finish(Status::ok, "");
    }

    Options options_;
    unsigned metrics_;
    int max_pieces_ = 0;
    int base_ = 1;
    std::vector<std::unique_ptr<SliceSlot>> slices_;
    std::vector<std::int32_t> slot_of_code_;
    mutable BlockCache cache_;
    mutable std::array<std::atomic<int>, kMetricCount> opened_{};
};

}  // namespace

Expected<std::unique_ptr<Engine>> make_engine(const Options& options) {
    return with_variant(options.variant, [&](auto v) { return EngineImpl<decltype(v)>::create(options); });
}

}  // namespace dtb::probe::detail
