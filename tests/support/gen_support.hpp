// Shared by the generator tests: the default set generated once per test run into a temporary
// folder, and lookups of any position (either side to move) in it.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "dtb/gen/generate.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/verify/verify_slice.hpp"
#include "tests/support/gen_probe_support.hpp"

namespace dtb::test {

// The default set (4 pieces) made by the ctest fixture "generate-test-tables", when present;
// otherwise every slice up to `pieces` of variant R, generated once per process into a temporary
// folder removed at exit (GeneratedTables), so the test binary also works on its own.
// (Once per piece count: a binary whose tests ask for 3 and for 4 pieces gets both.)
template <class R>
const std::filesystem::path& generated_tables(int pieces) {
    static std::map<int, std::filesystem::path> dirs;
    static std::map<int, std::unique_ptr<GeneratedTables>> made;  // destroyed (removed) before dirs
    static std::mutex dirs_mutex;
    std::lock_guard lock(dirs_mutex);
    if (auto it = dirs.find(pieces); it != dirs.end()) return it->second;
    std::filesystem::path dir = pieces == 4 ? fixture_tables(R::kId) : std::filesystem::path();
    if (dir.empty()) dir = made.emplace(pieces, std::make_unique<GeneratedTables>(R::kId, pieces)).first->second->dir();
    return dirs.emplace(pieces, dir).first->second;
}

template <class R>
verify::StoredValues lookup(verify::FullTables<R>& tables, const std::string& fen) {
    auto p = parse_fen<R>(fen);
    if (!p) throw std::runtime_error(p.error());
    Position q = *p;
    if (q.side_to_move == Color::black) q = reversed<typename R::Geometry>(q);
    auto s = tables.load(Material::of(q));
    if (!s) throw std::runtime_error(s.error());
    return tables.at(q);
}

}  // namespace dtb::test
