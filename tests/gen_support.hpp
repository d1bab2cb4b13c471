// Shared by the generator tests: the default set generated once per test run into a temporary
// folder, and lookups of any position (either side to move) in it.
#pragma once
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "gen/generate.hpp"
#include "gen/verify.hpp"
#include "rules/fen.hpp"

namespace dtb::test {

// The default set (4 pieces) made by the ctest fixture "generate-test-tables", when present;
// otherwise every slice up to `pieces` of variant R, generated once per process into a fresh
// folder (so the test binary also works on its own).
// (Once per piece count: a binary whose tests ask for 3 and for 4 pieces gets both.)
// The folders generated_tables made (not the fixture's), removed when the process exits.
class TemporaryTables {
public:
    static void remove_at_exit(std::filesystem::path dir) {
        static TemporaryTables made;
        std::lock_guard lock(made.mutex_);
        made.dirs_.push_back(std::move(dir));
    }
    ~TemporaryTables() {
        for (const auto& d : dirs_) {
            std::error_code ignored;  // a folder left behind is no reason to fail at exit
            std::filesystem::remove_all(d, ignored);
        }
    }

private:
    std::mutex mutex_;
    std::vector<std::filesystem::path> dirs_;
};

template <class R>
const std::filesystem::path& generated_tables(int pieces) {
    static std::map<int, std::filesystem::path> dirs;
    static std::mutex dirs_mutex;
    std::lock_guard lock(dirs_mutex);
    if (auto it = dirs.find(pieces); it != dirs.end()) return it->second;
    const std::filesystem::path dir = [pieces] {
#ifdef DTB_TEST_TABLES
        const auto fixture = std::filesystem::path(DTB_TEST_TABLES) / std::string(R::kName);
        if (pieces == 4 && std::filesystem::exists(fixture / "MMvMM.wdl")) return fixture;
#endif
        const auto d = std::filesystem::temp_directory_path() /
                       ("dtb_gen_test_" + std::string(R::kName) + "_" + std::to_string(pieces) + "_" +
                        std::to_string(::getpid()));
        std::filesystem::remove_all(d);
        TemporaryTables::remove_at_exit(d);
        gen::GenerateOptions o;
        o.variant = R::kId;
        o.max_pieces = pieces;
        o.out_dir = d;
        auto r = gen::generate(o, {});
        if (!r) throw std::runtime_error("generation failed: " + r.error());
        return d;
    }();
    return dirs.emplace(pieces, dir).first->second;
}

template <class R>
gen::StoredValues lookup(gen::FullTables<R>& tables, const std::string& fen) {
    auto p = parse_fen<R>(fen);
    if (!p) throw std::runtime_error(p.error());
    Position q = *p;
    if (q.side_to_move == Color::black) q = reversed<typename R::Geometry>(q);
    auto s = tables.load(Material::of(q));
    if (!s) throw std::runtime_error(s.error());
    return tables.at(q);
}

}  // namespace dtb::test
