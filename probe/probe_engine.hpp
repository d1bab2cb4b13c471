// Internal to the probe library: the variant-independent interface behind a Tablebase handle.
// One implementation per variant (probe_engine.cpp), so the hot paths are compiled per variant.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/probe/probe.hpp"

namespace dtb::probe::detail {

class Engine {
  public:
    virtual ~Engine() = default;
    virtual VariantId variant() const = 0;
    virtual unsigned metrics() const = 0;
    virtual int max_pieces() const = 0;
    virtual Result probe(const Position& p, unsigned metrics, Access access) const = 0;
    virtual Result probe_table(const Position& p, format::Metric metric, Access access) const = 0;
    // Every legal move with its value (unsorted); the Result is p's own value.
    virtual Result moves(const Position& p, std::vector<MoveValue>& out, unsigned metrics) const = 0;
    virtual std::string explain(const Result& r) const = 0;
    virtual Expected<Position> parse_fen(std::string_view fen) const = 0;
    virtual std::string to_fen(const Position& p) const = 0;
    virtual CacheStats cache_stats() const = 0;
    virtual std::array<int, format::kNumMetrics> tables_opened() const = 0;
};

Expected<std::unique_ptr<Engine>> make_engine(const Options& options);

}  // namespace dtb::probe::detail
