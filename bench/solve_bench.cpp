// dtb solve measured (BENCHMARKS.md, "Solver"): random positions of every slice of N pieces
// solved from the tables of fewer pieces (links to them in a temporary folder), per slice the
// share resolved within the budget, the mean time and the nodes per second; with the N-piece
// tables in the folder, every resolved answer is compared with them (a mismatch is a bug: the
// program exits 1).
//
//   solve_bench --tables data/tb/international --pieces 5 [--per-slice 50] [--nodes N]
//               [--time S] [--initial uniform|mobility|material] [--epsilon E] [--max-dtc D]
//               [--refresh on|off] [--check-proofs on] [--slices KKMvKK,...] [--seed S]
// --max-dtc D: only positions the full tables value won or lost with DTC <= D.
// --check-proofs on: every resolved answer's proof is read off, written as PDN, read back and
// checked from the smaller tables (solve/proof_check.hpp); a proof that fails exits 1.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "dtb/index/slice_index.hpp"
#include "dtb/probe/folder_variant.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/solve/proof_check.hpp"
#include "dtb/solve/proof_pdn.hpp"
#include "dtb/solve/prover.hpp"

using namespace dtb;
namespace fs = std::filesystem;

namespace {

struct Args {
    fs::path tables;
    int pieces = 5;
    int per_slice = 50;
    std::uint64_t nodes = 0;
    double seconds = 10;
    solve::InitialNumbers initial = solve::InitialNumbers::mobility;
    double epsilon = 0.25;
    bool refresh = true;
    bool check_proofs = false;
    int max_dtc = -1;
    std::vector<std::string> slices;
    std::uint64_t seed = 1;
};

probe::Tablebase open(const fs::path& dir, VariantId v) {
    probe::Options o;
    o.directories = {dir};
    o.variant = v;
    o.cache_mb = 512;
    auto tb = probe::Tablebase::open(o);
    if (!tb) {
        std::cerr << tb.error() << "\n";
        std::exit(2);
    }
    return std::move(tb.value());
}

template <class R>
int run(const Args& a) {
    const fs::path small_dir = fs::temp_directory_path() / ("dtb_solve_bench_" + std::to_string(::getpid()));
    fs::create_directories(small_dir);
    bool have_full = false;
    for (const auto& f : fs::directory_iterator(a.tables)) {
        const std::string file = f.path().filename().string();
        const auto m = Material::parse(file.substr(0, file.find('.')));
        if (m && m->pieces() < a.pieces) fs::create_symlink(fs::absolute(f.path()), small_dir / file);
        if (m && m->pieces() == a.pieces) have_full = true;
    }
    const probe::Tablebase small = open(small_dir, R::kId);
    std::optional<probe::Tablebase> full;
    if (have_full) full.emplace(open(a.tables, R::kId));
    solve::ProverOptions options;
    options.max_nodes = a.nodes;
    options.max_seconds = a.seconds;
    options.initial = a.initial;
    options.epsilon = a.epsilon;
    options.refresh_children = a.refresh;
    options.memory_mb = 512;
    auto prover = solve::Prover::create(small, options);
    if (!prover) {
        std::cerr << prover.error() << "\n";
        return 2;
    }
    std::mt19937_64 rng(a.seed);
    int wrong = 0, checked = 0, unwritten = 0;
    std::uint64_t all_nodes = 0, all_solved = 0, all_resolved = 0;
    double all_seconds = 0;
    std::printf("| slice | positions | resolved | share | wins | draws | losses | mean s | max s | nodes/s |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Material& m : all_materials<R>(a.pieces)) {
        if (m.pieces() != a.pieces) continue;
        if (!a.slices.empty() && std::find(a.slices.begin(), a.slices.end(), m.name()) == a.slices.end()) continue;
        const SliceIndex<R> index(m);
        std::uniform_int_distribution<std::uint64_t> pick(0, index.size() - 1);
        int solved = 0, resolved = 0;
        std::map<solve::Answer, int> answers;
        double seconds = 0, longest = 0;
        std::uint64_t nodes = 0;
        for (int tries = 0; solved < a.per_slice && tries < 200 * a.per_slice; ++tries) {
            Position p = index.unrank(pick(rng));
            if (rng() & 1) p = reversed<typename R::Geometry>(p);
            std::optional<probe::Result> truth;
            if (full) {
                truth = full->probe_dtc(p);
                if (!truth->ok()) continue;
                if (a.max_dtc >= 0 && (truth->wdl == Wdl::draw || truth->dtc > a.max_dtc)) continue;
            }
            const solve::SolveResult r = prover.value().solve(p);
            if (!r.ok()) {
                std::cerr << to_fen<R>(p) << ": solve failed\n";
                return 3;
            }
            ++solved;
            seconds += r.seconds;
            longest = std::max(longest, r.seconds);
            nodes += r.nodes;
            if (r.answer != solve::Answer::unresolved) {
                ++resolved;
                ++answers[r.answer];
                if (a.check_proofs) {
                    const auto proof = prover.value().proof();
                    if (!proof) {  // too large to write, or not re-derived: no verdict
                        ++unwritten;
                    } else {
                        const auto read = solve::read_proof_pdn(solve::write_proof_pdn(*proof));
                        const solve::ProofCheck c = read ? solve::check_proof(small, *read) : solve::ProofCheck{};
                        ++checked;
                        if (!c.valid || c.answer != r.answer) {
                            ++wrong;
                            std::cerr << "PROOF " << to_fen<R>(p) << ": " << (read ? c.problem : read.error()) << "\n";
                        }
                    }
                }
            }
            if (truth) {
                const Wdl t = truth->wdl;
                const bool agrees = r.lower <= t && t <= r.upper;
                if (!agrees) {
                    ++wrong;
                    std::cerr << "MISMATCH " << to_fen<R>(p) << ": solver " << to_string(r.answer) << " ["
                              << to_string(r.lower) << ", " << to_string(r.upper) << "], tables " << to_string(t)
                              << "\n";
                }
            }
        }
        all_nodes += nodes;
        all_solved += static_cast<std::uint64_t>(solved);
        all_resolved += static_cast<std::uint64_t>(resolved);
        all_seconds += seconds;
        std::printf("| %s | %d | %d | %.1f%% | %d | %d | %d | %.3f | %.2f | %.0f |\n", m.name().c_str(), solved,
                    resolved, solved ? 100.0 * resolved / solved : 0.0, answers[solve::Answer::win],
                    answers[solve::Answer::draw], answers[solve::Answer::loss], solved ? seconds / solved : 0.0,
                    longest, seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0);
        std::fflush(stdout);
    }
    std::printf("| all | %llu | %llu | %.1f%% | | | | %.3f | | %.0f |\n", static_cast<unsigned long long>(all_solved),
                static_cast<unsigned long long>(all_resolved), all_solved ? 100.0 * all_resolved / all_solved : 0.0,
                all_solved ? all_seconds / all_solved : 0.0,
                all_seconds > 0 ? static_cast<double>(all_nodes) / all_seconds : 0.0);
    std::printf(
        "answers contradicting the tables or failing their proof's check: %d%s; proofs checked: %d, not "
        "written (more than %zu nodes, or not re-derived): %d\n",
        wrong, full ? "" : " (no tables of this size to compare)", checked, solve::kMaxProofNodes, unwritten);
    fs::remove_all(small_dir);
    return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--tables")
            a.tables = v;
        else if (k == "--pieces")
            a.pieces = std::stoi(v);
        else if (k == "--per-slice")
            a.per_slice = std::stoi(v);
        else if (k == "--nodes")
            a.nodes = std::stoull(v);
        else if (k == "--time")
            a.seconds = std::stod(v);
        else if (k == "--epsilon")
            a.epsilon = std::stod(v);
        else if (k == "--refresh")
            a.refresh = v == "on";
        else if (k == "--check-proofs")
            a.check_proofs = v == "on";
        else if (k == "--max-dtc")
            a.max_dtc = std::stoi(v);
        else if (k == "--seed")
            a.seed = std::stoull(v);
        else if (k == "--initial")
            a.initial = v == "uniform"    ? solve::InitialNumbers::uniform
                        : v == "material" ? solve::InitialNumbers::material
                                          : solve::InitialNumbers::mobility;
        else if (k == "--slices") {
            std::size_t s = 0;
            while (s <= v.size()) {
                const std::size_t e = std::min(v.find(',', s), v.size());
                a.slices.push_back(v.substr(s, e - s));
                s = e + 1;
            }
        } else {
            std::cerr << "unknown option " << k << "\n";
            return 2;
        }
    }
    if (a.tables.empty()) {
        std::cerr << "usage: solve_bench --tables DIR --pieces N [options]\n";
        return 2;
    }
    probe::Options o;
    o.directories = {a.tables};
    const auto probe_tb = probe::Tablebase::open(o);
    const VariantId v = probe_tb ? probe_tb->variant() : VariantId::international;
    const auto folder = format::folder_variant(a.tables);
    const VariantId variant = folder ? *folder : v;
    return with_variant(variant, [&](auto r) { return run<decltype(r)>(a); });
}
