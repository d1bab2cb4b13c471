// Tablebase: the handle, move ordering, best move and principal variation. The per-variant
// work (tables, cache, capture resolution) is in probe_engine.cpp.
#include "dtb/probe/probe.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "dtb/probe/probe_engine.hpp"

namespace dtb::probe {

std::string_view to_string(Status s) {
    switch (s) {
        case Status::ok:
            return "ok";
        case Status::missing:
            return "missing";
        case Status::corrupt:
            return "corrupt";
        case Status::illegal:
            return "illegal";
        case Status::not_cached:
            return "not cached";
    }
    return "unknown";
}

// Move texts in the order of their square numbers ("2-7" before "11-6", "d3-d4" before
// "d3-e3"): runs of digits compare as numbers, other characters as themselves.
bool natural_less(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = a[i] >= '0' && a[i] <= '9', db = b[j] >= '0' && b[j] <= '9';
        if (da && db) {
            std::size_t ei = i, ej = j;
            while (ei < a.size() && a[ei] >= '0' && a[ei] <= '9') ++ei;
            while (ej < b.size() && b[ej] >= '0' && b[ej] <= '9') ++ej;
            const std::string_view na = std::string_view(a).substr(i, ei - i),
                                   nb = std::string_view(b).substr(j, ej - j);
            // Without leading zeros (square names have none), the shorter run is the smaller number.
            if (na.size() != nb.size()) return na.size() < nb.size();
            if (na != nb) return na < nb;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

bool better_move(const MoveValue& a, const MoveValue& b) {
    // Rank: wins first, then draws, then losses.
    const auto rank = [](Wdl w) { return w == Wdl::win ? 0 : w == Wdl::draw ? 1 : 2; };
    if (rank(a.wdl) != rank(b.wdl)) return rank(a.wdl) < rank(b.wdl);
    if (a.wdl == Wdl::win) {
        if (a.dtw != b.dtw) return a.dtw < b.dtw;
        if (a.dtc != b.dtc) return a.dtc < b.dtc;
    } else if (a.wdl == Wdl::loss) {
        if (a.dtw != b.dtw) return a.dtw > b.dtw;
        if (a.dtc != b.dtc) return a.dtc > b.dtc;
    }
    return natural_less(a.text, b.text);
}

Tablebase::Tablebase(std::unique_ptr<detail::Engine> engine) : engine_(std::move(engine)) {}
Tablebase::Tablebase(Tablebase&&) noexcept = default;
Tablebase& Tablebase::operator=(Tablebase&&) noexcept = default;
Tablebase::~Tablebase() = default;

Expected<Tablebase> Tablebase::open(const Options& options) try {
    auto engine = detail::make_engine(options);
    if (!engine) return Error{engine.error()};
    return Tablebase(std::move(engine.value()));
} catch (const std::exception& e) {
    return Error{std::string("cannot open the tablebase: ") + e.what()};
}

VariantId Tablebase::variant() const {
    return engine_->variant();
}
unsigned Tablebase::metrics() const {
    return engine_->metrics();
}
int Tablebase::max_pieces() const {
    return engine_->max_pieces();
}

Result Tablebase::probe(const Position& p, unsigned metrics, Access access) const {
    return engine_->probe(p, metrics, access);
}

Result Tablebase::probe_table(const Position& p, format::Metric metric, Access access) const {
    return engine_->probe_table(p, metric, access);
}

Result Tablebase::moves(const Position& p, std::vector<MoveValue>& out, unsigned metrics) const {
    const Result r = engine_->moves(p, out, metrics);
    if (r.ok()) std::sort(out.begin(), out.end(), better_move);
    return r;
}

Result Tablebase::best_move(const Position& p, std::optional<MoveValue>& out) const {
    out.reset();
    std::vector<MoveValue> all;
    // Ordered by DTW: by WDL alone every winning move ties, and the first of them need not make
    // progress (played again and again, it may never win).
    const Result r = moves(p, all, engine_->metrics() | kDtw);
    if (r.ok() && !all.empty()) out = std::move(all.front());
    return r;
}

Result Tablebase::principal_variation(const Position& p, std::vector<MoveValue>& out) const {
    out.clear();
    const unsigned metrics = engine_->metrics() | kDtw;
    std::vector<MoveValue> all;
    Result first = engine_->probe(p, metrics, Access::load);
    if (!first.ok()) return first;
    // Each best move lowers the DTW of a decided position by one, so the walk ends after DTW
    // plies; the bound only guards against inconsistent tables.
    Position cur = p;
    for (int ply = 0; first.wdl != Wdl::draw && ply <= first.dtw; ++ply) {
        const Result r = moves(cur, all, metrics);
        if (!r.ok()) {
            out.clear();
            return r;
        }
        if (all.empty()) break;
        cur = make_move(cur, all.front().move);
        out.push_back(std::move(all.front()));
    }
    return first;
}

Analysis Tablebase::analyse(const Position& p) const {
    Analysis a;
    a.result = moves(p, a.moves);
    if (!a.result.ok()) return a;
    if (engine_->metrics() & kDtw) {
        const Result pv = principal_variation(p, a.pv);
        if (!pv.ok()) {
            a.moves.clear();
            a.result = pv;
        }
    }
    return a;
}

std::string Tablebase::explain(const Result& r) const {
    return engine_->explain(r);
}
Expected<Position> Tablebase::parse_fen(std::string_view fen) const {
    return engine_->parse_fen(fen);
}
std::string Tablebase::to_fen(const Position& p) const {
    return engine_->to_fen(p);
}
CacheStats Tablebase::cache_stats() const {
    return engine_->cache_stats();
}
std::array<int, format::kNumMetrics> Tablebase::tables_opened() const {
    return engine_->tables_opened();
}

}  // namespace dtb::probe
