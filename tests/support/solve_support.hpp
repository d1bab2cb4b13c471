// Shared by the solver's tests: a folder that holds only the smaller tables of a set (so that
// the solver must search where the full set has the answer), and random positions of a slice.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dtb/index/material.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/probe.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace dtb::test {

// The fixture's 2-4 piece set of a variant, or a set up to `pieces` generated once per process
// (the sanitizer builds have no fixture: a test that needs fewer pieces generates fewer).
inline std::filesystem::path full_tables(VariantId variant, int pieces = 4) {
    if (auto d = fixture_tables(variant); !d.empty()) return d;
    static std::map<std::pair<VariantId, int>, std::unique_ptr<GeneratedTables>> made;
    auto& t = made[{variant, pieces}];
    if (!t) t = std::make_unique<GeneratedTables>(variant, pieces);
    return t->dir();
}

// Links to every table of `from` with at most `pieces` pieces, in a fresh folder.
class SmallerTables {
  public:
    SmallerTables(const std::filesystem::path& from, int pieces, const std::string& name) : dir_(name) {
        for (const auto& f : std::filesystem::directory_iterator(from)) {
            const std::string file = f.path().filename().string();
            const auto m = Material::parse(file.substr(0, file.find('.')));
            if (m && m->pieces() <= pieces) std::filesystem::create_symlink(f.path(), dir_.path / file);
        }
    }
    const std::filesystem::path& dir() const { return dir_.path; }

  private:
    TempDir dir_;
};

inline probe::Tablebase open_solve_tables(const std::filesystem::path& dir, VariantId variant, bool rules = false) {
    probe::Options o;
    o.directories = {dir};
    o.variant = variant;
    o.metrics = probe::kAllMetrics | (rules ? probe::kRuleMetrics : 0u);
    o.cache_mb = 256;
    auto tb = probe::Tablebase::open(o);
    if (!tb) throw std::runtime_error(tb.error());
    return std::move(tb.value());
}

// `count` random positions of slice m, either side to move (the side to move's pieces as m says
// White's when White moves, else the colours reversed), that the full tables value.
template <class R>
std::vector<Position> sample_positions(const Material& m, int count, std::mt19937_64& rng,
                                       const probe::Tablebase& full) {
    const SliceIndex<R> index(m);
    std::uniform_int_distribution<std::uint64_t> pick(0, index.size() - 1);
    std::vector<Position> out;
    for (int tries = 0; static_cast<int>(out.size()) < count && tries < 50 * count; ++tries) {
        Position p = index.unrank(pick(rng));
        if (rng() & 1) p = reversed<typename R::Geometry>(p);
        if (full.probe_wdl(p).ok()) out.push_back(p);
    }
    return out;
}

}  // namespace dtb::test
