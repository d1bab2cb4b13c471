// Shared by the probe tests that need real tables: generated once per test process (each
// TEST_CASE is its own process under ctest) into a temporary folder removed at exit.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/generate.hpp"
#include "probe/probe.hpp"

namespace dtb::test {

class GeneratedTables {
  public:
    // Every slice up to `pieces`, then the slices `extra` (names like "KKKvK", with one more
    // piece at most, whose inputs are then all on disk).
    GeneratedTables(VariantId variant, int pieces, std::vector<std::string> extra = {})
        : dir_(std::filesystem::temp_directory_path() /
               ("dtb_gen_probe_" + std::to_string(static_cast<int>(variant)) + "_" + std::to_string(pieces) +
                "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(dir_);
        gen::GenerateOptions o;
        o.variant = variant;
        o.max_pieces = pieces;
        o.out_dir = dir_;
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
    ~GeneratedTables() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    GeneratedTables(const GeneratedTables&) = delete;
    GeneratedTables& operator=(const GeneratedTables&) = delete;
    const std::filesystem::path& dir() const { return dir_; }

  private:
    std::filesystem::path dir_;
};

// International up to 3 pieces plus KKKvK (for W:WK6,K22,K27:BK49), once per process.
inline const GeneratedTables& international_tables() {
    static const GeneratedTables t(VariantId::international, 3, {"KKKvK"});
    return t;
}
inline const GeneratedTables& turkish_tables() {
    static const GeneratedTables t(VariantId::turkish, 3);
    return t;
}

inline probe::Tablebase open_tables(const GeneratedTables& t, VariantId v, std::size_t cache_mb = 16) {
    probe::Options o;
    o.directories = {t.dir()};
    o.variant = v;
    o.cache_mb = cache_mb;
    auto tb = probe::Tablebase::open(o);
    if (!tb) throw std::runtime_error(tb.error());
    return std::move(tb.value());
}

}  // namespace dtb::test
