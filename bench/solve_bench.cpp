// dtb solve measured (BENCHMARKS.md, "Solver"): random positions of every slice of N pieces
// solved from the tables of fewer pieces (links to them in a temporary folder), per slice the
// share resolved within the budget, the mean time and the nodes per second; with the N-piece
// tables in the folder, every resolved answer is compared with them (a mismatch is a bug: the
// program exits 1), only the slices whose N-piece tables are there (WDL and DTC, both colours)
// are sampled, and the share resolved is given per value of the tables (wins, draws, losses).
// Nodes per second are given per wall second and per CPU second of the solving thread (the
// machine may be shared).
//
//   solve_bench --tables data/tb/international --pieces 5 [--per-slice 50] [--nodes N]
//               [--time S] [--initial uniform|mobility|material] [--epsilon E] [--max-dtc D]
//               [--refresh on|off] [--check-proofs on] [--slices KKMvKK,...] [--seed S]
//               [--min-dtc D] [--memory MB]
// --max-dtc D: only positions the full tables value won or lost with DTC <= D (--min-dtc: and
// at least D).
// --check-proofs on: every resolved answer's proof is read off, written as PDN, read back and
// checked from the smaller tables (solve/proof_check.hpp); a proof that fails exits 1.
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
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
    int min_dtc = -1;
    std::size_t memory_mb = 512;  // the transposition table
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

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A slice can be compared when its tables and its colour mirror's (WDL, DTC) are all in `dir`.
bool have_tables(const fs::path& dir, const Material& m) {
    for (const std::string& name : {m.name(), m.mirrored().name()})
        for (const char* ext : {".wdl", ".dtc"})
            if (!fs::exists(dir / (name + ext))) return false;
    return true;
}

int wdl_index(Wdl w) {
    return w == Wdl::win ? 0 : w == Wdl::draw ? 1 : 2;
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
    options.memory_mb = a.memory_mb;
    auto prover = solve::Prover::create(small, options);
    if (!prover) {
        std::cerr << prover.error() << "\n";
        return 2;
    }
    std::mt19937_64 rng(a.seed);
    int wrong = 0, checked = 0, unwritten = 0, skipped = 0;
    std::uint64_t all_nodes = 0, all_solved = 0, all_resolved = 0;
    double all_seconds = 0, all_cpu = 0;
    std::array<int, 3> all_truth{}, all_truth_resolved{};
    // With the full tables, wins / draws / losses are the tables' values: resolved of all.
    std::printf(
        "| slice | positions | resolved | share | wins | draws | losses | mean s | max s | nodes/s | nodes/CPU s |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Material& m : all_materials<R>(a.pieces)) {
        if (m.pieces() != a.pieces) continue;
        if (!a.slices.empty() && std::find(a.slices.begin(), a.slices.end(), m.name()) == a.slices.end()) continue;
        if (full && !have_tables(a.tables, m)) {
            ++skipped;
            continue;
        }
        const SliceIndex<R> index(m);
        std::uniform_int_distribution<std::uint64_t> pick(0, index.size() - 1);
        int solved = 0, resolved = 0;
        std::map<solve::Answer, int> answers;
        std::array<int, 3> truth_all{}, truth_resolved{};
        double seconds = 0, longest = 0, cpu = 0;
        std::uint64_t nodes = 0;
        for (int tries = 0; solved < a.per_slice && tries < 5000 * a.per_slice; ++tries) {
            Position p = index.unrank(pick(rng));
            if (rng() & 1) p = reversed<typename R::Geometry>(p);
            std::optional<probe::Result> truth;
            if (full) {
                truth = full->probe_dtc(p);
                if (!truth->ok()) continue;
                if (a.max_dtc >= 0 && (truth->wdl == Wdl::draw || truth->dtc > a.max_dtc)) continue;
                if (a.min_dtc >= 0 && (truth->wdl == Wdl::draw || truth->dtc < a.min_dtc)) continue;
            }
            const double cpu_before = thread_cpu_seconds();
            const solve::SolveResult r = prover.value().solve(p);
            cpu += thread_cpu_seconds() - cpu_before;
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
                ++truth_all[wdl_index(t)];
                if (r.answer != solve::Answer::unresolved) ++truth_resolved[wdl_index(t)];
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
        all_cpu += cpu;
        std::array<std::string, 3> classes;
        for (int i = 0; i < 3; ++i) {
            all_truth[i] += truth_all[i];
            all_truth_resolved[i] += truth_resolved[i];
            static constexpr std::array kAnswers{solve::Answer::win, solve::Answer::draw, solve::Answer::loss};
            classes[i] = full ? std::to_string(truth_resolved[i]) + "/" + std::to_string(truth_all[i])
                              : std::to_string(answers[kAnswers[i]]);
        }
        std::printf("| %s | %d | %d | %.1f%% | %s | %s | %s | %.3f | %.2f | %.0f | %.0f |\n", m.name().c_str(), solved,
                    resolved, solved ? 100.0 * resolved / solved : 0.0, classes[0].c_str(), classes[1].c_str(),
                    classes[2].c_str(), solved ? seconds / solved : 0.0, longest,
                    seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0,
                    cpu > 0 ? static_cast<double>(nodes) / cpu : 0.0);
        std::fflush(stdout);
    }
    std::array<std::string, 3> classes;
    for (int i = 0; i < 3; ++i)
        if (full) classes[i] = std::to_string(all_truth_resolved[i]) + "/" + std::to_string(all_truth[i]);
    std::printf("| all | %llu | %llu | %.1f%% | %s | %s | %s | %.3f | | %.0f | %.0f |\n",
                static_cast<unsigned long long>(all_solved), static_cast<unsigned long long>(all_resolved),
                all_solved ? 100.0 * all_resolved / all_solved : 0.0, classes[0].c_str(), classes[1].c_str(),
                classes[2].c_str(), all_solved ? all_seconds / all_solved : 0.0,
                all_seconds > 0 ? static_cast<double>(all_nodes) / all_seconds : 0.0,
                all_cpu > 0 ? static_cast<double>(all_nodes) / all_cpu : 0.0);
    std::printf("nodes: %llu in %.2f s (CPU %.2f s)\n", static_cast<unsigned long long>(all_nodes), all_seconds,
                all_cpu);
    if (skipped != 0)
        std::printf("slices skipped (their %d-piece tables are not in the folder): %d\n", a.pieces, skipped);
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
        else if (k == "--memory")
            a.memory_mb = std::stoull(v);
        else if (k == "--min-dtc")
            a.min_dtc = std::stoi(v);
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
