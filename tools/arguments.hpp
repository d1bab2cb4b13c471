// What every subcommand checks and reports the same way: integers written in plain decimal and
// in range, the thread count, the variant of a table folder, errors printed safely, and the exit
// code of each kind of error (README.md, "Exit codes").
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>

#include "dtb/format/regular_file.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/probe/folder_variant.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/quote.hpp"
#include "dtb/rules/variant.hpp"
#include "dtb/rules/whole_number.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

// The largest PDN file dtb reads (a tournament's file is a few MB; a bigger collection is split).
inline constexpr std::size_t kMaxPdnBytes = std::size_t{64} << 20;

// An integer in plain decimal ("-" allowed where lo < 0; no "+", "0x", blanks or empty text)
// within [lo, hi]. CLI11's own conversion would take "0x10" as 16 and "" as 0.
inline CLI::Validator integer_in(long long lo, long long hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            if (!is_whole_number_text(text)) return quote_input(text, 24) + " is not a whole number";
            if (!parse_whole_number(text, lo, hi))
                return quote_input(text, 24) + " is out of range: " + std::to_string(lo) + " to " + std::to_string(hi);
            return {};
        },
        "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", "integer_in");
}

// A folder or address option given as empty text: refused rather than read as "not given" (which
// would quietly pick the default folder).
inline CLI::Validator not_empty() {
    return CLI::Validator(
        [](std::string& text) -> std::string { return text.empty() ? "must not be empty" : std::string(); },
        "not empty", "not_empty");
}

// --threads for every subcommand that runs in parallel: 0 (all cores) to gen::kMaxThreads.
inline void add_threads_option(CLI::App* cmd, int& threads) {
    cmd->add_option("--threads", threads, "Threads (default 0: all cores; at most 1024)")
        ->check(integer_in(0, gen::kMaxThreads));
}

// --variant and --pieces of the commands that generate or plan every slice up to N pieces.
inline void add_variant_and_pieces_options(CLI::App* cmd, std::string& variant, int& pieces) {
    cmd->add_option("--variant", variant, "international or turkish")
        ->check(CLI::IsMember({"international", "turkish"}))
        ->default_val("international");
    cmd->add_option("--pieces", pieces, "Largest number of pieces")->required()->check(integer_in(2, gen::kMaxPieces));
}

// The exit code of a library error (README.md, "Exit codes").
inline int exit_code_of(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::bad_input:
            return kExitBadInput;
        case ErrorKind::tables:
            return kExitTables;
        case ErrorKind::busy:
            return kExitBusy;
        case ErrorKind::system:
            return kExitSystem;
        case ErrorKind::unspecified:
            break;
    }
    return kExitSystem;
}

// "dtb <command>: <message>" on stderr, with what the message quotes from input or paths made
// safe for a terminal (rules/quote.hpp).
inline void print_error(std::string_view command, std::string_view message) {
    std::cerr << "dtb " << command << ": " << escape_text(message) << "\n" << std::flush;
}

// One variant's table folder: the one given (--db, --out), else data/tb/<variant>, where dtb gen
// writes by default.
inline std::filesystem::path table_folder(const std::string& given, std::string_view variant) {
    return given.empty() ? std::filesystem::path("data/tb") / variant : std::filesystem::path(given);
}

// The variant to read a table folder as: --variant when given; else the folder's own (its
// tables' headers say it; the choice is said on stderr when it is not the default); else
// international.
inline VariantId variant_for(std::string_view command, const std::string& variant, bool variant_given,
                             const std::string& db) {
    if (variant_given) return variant == "turkish" ? VariantId::turkish : VariantId::international;
    if (!db.empty())
        if (auto v = format::folder_variant(db); v && *v != VariantId::international) {
            std::cerr << "dtb " << command << ": " << escape_text(db) << " holds " << variant_name(*v)
                      << " tables: reading them as --variant " << variant_name(*v) << "\n";
            return *v;
        }
    return VariantId::international;
}

}  // namespace dtb::tools
