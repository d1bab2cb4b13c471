// The subcommands of `dtb`. Each registers its options on the CLI11 app and sets the action run
// after parsing. Exit codes are shared across dtb (see README.md).
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dtb::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitTables = 3;
inline constexpr int kExitBusy = 4;    // dtb gen: another run writes the folder
inline constexpr int kExitSystem = 5;  // the machine refused: disk full, a write failed, memory

struct PerftOptions {
    std::string variant = "international";
    std::string fen;
    bool fen_given = false;  // an empty --fen "" is malformed, not the start position
    int depth = 0;
    std::string captures = "unique";
    bool divide = false;
    bool json = false;
};
struct GenOptions {
    std::string variant = "international";
    int pieces = 0;
    std::string out;
    std::string tables;  // the tables root (--tables); out, when given, is the variant's folder
    int threads = 0;
    std::vector<std::string> only;
    std::uint64_t memory_mb = 0;
    int zstd_level = 0;
    std::string wdl = "balanced";
    bool spill = false;
    bool blocks = false;
    std::uint64_t block_positions = 0;
    bool wait = false;
};
void add_gen_command(CLI::App& app, GenOptions& o, std::function<int()>& action);

struct VerifyOptions {
    std::string db;
    std::string tables;
    std::string variant = "international";
    bool variant_given = false;  // else the folder's own (tools/arguments.hpp)
    bool full = false;
    bool json = false;
    int threads = 0;
    std::vector<std::string> only;  // slice names: these and their mirrors only
};
void add_verify_command(CLI::App& app, VerifyOptions& o, std::function<int()>& action);

void add_perft_command(CLI::App& app, PerftOptions& o, std::function<int()>& action);

struct ProbeOptions {
    std::vector<std::string> db;
    std::string tables;
    std::string variant = "international";
    bool variant_given = false;  // else the folder's own (tools/arguments.hpp)
    bool json = false;
    std::size_t cache_mb = 64;
    std::vector<std::string> fens;
    std::vector<std::string> fen_options;  // --fen FEN, as the positional FENs
};
void add_probe_command(CLI::App& app, ProbeOptions& o, std::function<int()>& action);

struct StatsOptions {
    std::string db;
    std::string tables;
    std::string variant = "international";
    bool variant_given = false;  // else the folder's own (tools/arguments.hpp)
    bool json = false;
    int threads = 0;
};
void add_stats_command(CLI::App& app, StatsOptions& o, std::function<int()>& action);

struct AdjudicateOptions {
    std::string db;
    std::string tables;
    std::string turkish_db;  // --pdn: Turkish games' tables (default: "turkish" beside --db)
    std::string rules = "fmjd";
    std::string fen;
    std::string fen_argument;  // the FEN given without --fen
    std::string pdn;
    int reversible = 0;
    std::optional<int> endgame;
    std::optional<int> small;
    bool json = false;
};
void add_adjudicate_command(CLI::App& app, AdjudicateOptions& o, std::function<int()>& action);

struct SolveOptions {
    std::string db;
    std::string tables;
    std::string variant = "international";
    bool variant_given = false;  // else the folder's own (tools/arguments.hpp)
    std::string fen;
    std::string rules = "none";
    int reversible = 0;
    std::optional<int> endgame;
    std::optional<int> small;
    double time = 60;
    std::uint64_t nodes = 0;
    std::size_t memory_mb = 256;
    std::string proof;
    std::string check;
    bool json = false;
};
void add_solve_command(CLI::App& app, SolveOptions& o, std::function<int()>& action);

struct ServeOptions {
    std::string tables;  // empty: $DTB_TABLES, else data/tb
    std::string host = "127.0.0.1";
    int port = 8080;
    int threads = 0;
    std::size_t cache_mb = 64;
    double solve_time_limit = 30;  // seconds: the most a solve request may take
    std::size_t solve_memory_mb = 64;
};
void add_serve_command(CLI::App& app, ServeOptions& o, std::function<int()>& action);

struct PlanOptions {
    std::string variant = "international";
    int pieces = 0;
    int nodes = 1;
    int cores = 0;                // 0: this machine's
    std::uint64_t memory_gb = 0;  // 0: this machine's
    bool json = false;
};
void add_plan_command(CLI::App& app, PlanOptions& o, std::function<int()>& action);

}  // namespace dtb::tools
