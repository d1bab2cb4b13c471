// Shared by the probe tests that need real tables: the default set made by the ctest fixture
// "generate-test-tables" (tests/CMakeLists.txt) when present, otherwise tables generated once per
// test process into a temporary folder removed at exit (so the binary also works on its own).
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/gen/generate.hpp"
#include "dtb/probe/probe.hpp"
#include "tests/support/temp_dir.hpp"

namespace dtb::test {

class GeneratedTables {
  public:
    // Every slice up to `pieces`, then the slices `extra` (names like "KKKvK", with one more
    // piece at most, whose inputs are then all on disk).
    // wdl, balanced_min_bytes: which WDL tables are derived (gen::GenerateOptions::wdl).
    GeneratedTables(VariantId variant, int pieces, std::vector<std::string> extra = {},
                    gen::WdlStorage wdl = gen::WdlStorage::balanced,
                    std::uint64_t balanced_min_bytes = gen::kBalancedMinBytes)
        : dir_("gen_probe_" + std::to_string(static_cast<int>(variant)) + "_" + std::to_string(pieces) + "_" +
               std::to_string(static_cast<int>(wdl)) + "_" + std::to_string(next_serial())) {
        gen::GenerateOptions o;
        o.variant = variant;
        o.max_pieces = pieces;
        o.out_dir = dir_.path;
        o.wdl = wdl;
        o.wdl_balanced_min_bytes = balanced_min_bytes;
#if defined(__SANITIZE_THREAD__)
        o.threads = 1;  // libgomp is not instrumented: keep ThreadSanitizer to the probe library
#endif
        if (auto r = gen::generate(o, {}); !r) throw std::runtime_error("generation failed: " + r.error());
        if (!extra.empty()) {
            o.max_pieces = pieces + 1;
            o.only = std::move(extra);
            if (auto r = gen::generate(o, {}); !r) throw std::runtime_error("generation failed: " + r.error());
        }
    }
    GeneratedTables(const GeneratedTables&) = delete;
    GeneratedTables& operator=(const GeneratedTables&) = delete;
    const std::filesystem::path& dir() const {
        return dir_.path;
    }

  private:
    // Two sets of one process never share a folder (with other extra slices, or one made while
    // another lives, each would remove the other's).
    static int next_serial() {
        static std::atomic<int> serial{0};
        return serial++;
    }
    test::TempDir dir_;
};

// The fixture's 4-piece set of a variant, or an empty path when it is not there.
inline std::filesystem::path fixture_tables(VariantId variant) {
#ifdef DTB_TEST_TABLES
    const auto dir =
        std::filesystem::path(DTB_TEST_TABLES) / (variant == VariantId::turkish ? "turkish" : "international");
    if (std::filesystem::exists(dir / "MMvMM.wdl")) return dir;  // the last slice written
#endif
    (void)variant;
    return {};
}

// International: the fixture's set, or up to 3 pieces plus KKKvK (for W:WK6,K22,K27:BK49).
inline const std::filesystem::path& international_tables() {
    static const std::filesystem::path dir = [] {
        if (auto d = fixture_tables(VariantId::international); !d.empty()) return d;
        static const GeneratedTables t(VariantId::international, 3, {"KKKvK"});
        return t.dir();
    }();
    return dir;
}
// Turkish: the fixture's set, or up to 3 pieces.
inline const std::filesystem::path& turkish_tables() {
    static const std::filesystem::path dir = [] {
        if (auto d = fixture_tables(VariantId::turkish); !d.empty()) return d;
        static const GeneratedTables t(VariantId::turkish, 3);
        return t.dir();
    }();
    return dir;
}

inline probe::Tablebase open_tables(const std::filesystem::path& dir, VariantId v, std::size_t cache_mb = 16) {
    probe::Options o;
    o.directories = {dir};
    o.variant = v;
    o.cache_mb = cache_mb;
    auto tb = probe::Tablebase::open(o);
    if (!tb) throw std::runtime_error(tb.error());
    return std::move(tb.value());
}

}  // namespace dtb::test
