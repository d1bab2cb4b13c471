// What every subcommand checks and reports the same way: numbers written in plain decimal and in
// range, the thread count, the variant of a table folder, errors printed safely, and the exit code
// of each kind of error (README.md, "Exit codes").
#pragma once
#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/format/regular_file.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/probe/folder_variant.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/probe/table_folders.hpp"
#include "dtb/rules/decimal_number.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/parse_variant.hpp"
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

// A number of seconds or the like in plain decimal ("5", "0.5"; no sign, exponent, "inf" or "nan",
// which CLI::Range would take) within [lo, hi].
inline CLI::Validator decimal_in(double lo, double hi) {
    const auto shown = [](double v) {  // 0.001, 86400: no trailing zeros
        std::string t = std::to_string(v);
        t.erase(t.find_last_not_of('0') + 1);
        if (t.back() == '.') t.pop_back();
        return t;
    };
    const std::string range = shown(lo) + " to " + shown(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            if (!is_decimal_text(text)) return quote_input(text, 24) + " is not a decimal number (5, 0.5)";
            if (!parse_decimal(text, lo, hi)) return quote_input(text, 24) + " is out of range: " + range;
            return {};
        },
        "NUMBER in [" + range + "]", "decimal_in");
}

// A folder or address option given as empty text: refused rather than read as "not given" (which
// would quietly pick the default folder).
inline CLI::Validator not_empty() {
    return CLI::Validator(
        [](std::string& text) -> std::string { return text.empty() ? "must not be empty" : std::string(); },
        "not empty", "not_empty");
}

// A memory size: a whole number with an optional unit K, M, G or T (powers of 1024: "16G",
// "512M", "1.5" is refused; "16GB" and "16GiB" too), a bare number being in `bare_unit_mb` (1: MB,
// 1024: GB). Rewritten as a whole number of `out_unit_mb`, from 1 to `max_out`.
inline CLI::Validator memory_size(std::uint64_t bare_unit_mb, std::uint64_t out_unit_mb, std::uint64_t max_out) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            std::string digits = text, unit;
            while (!digits.empty() && !(digits.back() >= '0' && digits.back() <= '9')) {
                unit.insert(unit.begin(), static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back()))));
                digits.pop_back();
            }
            if (unit.size() > 1 && (unit.substr(1) == "B" || unit.substr(1) == "IB")) unit.resize(1);
            std::uint64_t unit_kb = 0;
            if (unit.empty())
                unit_kb = bare_unit_mb * 1024;
            else if (unit == "K")
                unit_kb = 1;
            else if (unit == "M")
                unit_kb = 1024;
            else if (unit == "G")
                unit_kb = 1024 * 1024;
            else if (unit == "T")
                unit_kb = std::uint64_t{1024} * 1024 * 1024;
            const auto n =
                is_whole_number_text(digits) ? parse_whole_number(digits, 0, std::int64_t{1} << 40) : std::nullopt;
            if (!unit_kb || !n)
                return quote_input(text, 24) + " is not a memory size (a whole number with K, M, G or T: 16G, 512M)";
            const std::uint64_t kb = static_cast<std::uint64_t>(*n) * unit_kb, out_kb = out_unit_mb * 1024;
            if (kb % out_kb != 0 && out_unit_mb > 1) return quote_input(text, 24) + " is not a whole number of GB";
            const std::uint64_t out = kb / out_kb;
            if (out < 1 || out > max_out)
                return quote_input(text, 24) + " is out of range: 1 to " + std::to_string(max_out) +
                       (out_unit_mb == 1 ? " MB" : " GB");
            text = std::to_string(out);
            return {};
        },
        "SIZE (16G, 512M; bare: " + std::string(bare_unit_mb == 1 ? "MB" : "GB") + ")", "memory_size");
}

// --threads for every subcommand that runs in parallel: 0 (all cores) to gen::kMaxThreads.
inline void add_threads_option(CLI::App* cmd, int& threads) {
    cmd->add_option("--threads", threads, "Threads (default 0: all cores; at most 1024)")
        ->check(integer_in(0, gen::kMaxThreads));
}

// --variant: a variant's name (parse_variant, rules/variant.hpp); `help` adds what its absence means.
inline CLI::Option* add_variant_option(CLI::App* cmd, std::string& variant,
                                       const std::string& help = "international or turkish") {
    return cmd->add_option("--variant", variant, help)
        ->check(CLI::IsMember(
            {std::string(variant_name(VariantId::international)), std::string(variant_name(VariantId::turkish))}));
}

// The variant a --variant checked by add_variant_option names (international when empty).
inline VariantId variant_option(const std::string& variant) {
    return parse_variant(variant).value_or(VariantId::international);
}

// --db of the commands that read one variant's folder (a std::string, or a vector of them for a
// repeated --db).
template <class Folders>
CLI::Option* add_db_option(CLI::App* cmd, Folders& db,
                           const std::string& help = "Table folder of one variant (default <tables root>/<variant>)") {
    return cmd->add_option("--db", db, help)->check(not_empty());
}

// --variant and --pieces of the commands that generate or plan every slice up to N pieces.
inline void add_variant_and_pieces_options(CLI::App* cmd, std::string& variant, int& pieces) {
    add_variant_option(cmd, variant)->default_val("international");
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

// Why a position could not be probed, for a user: beyond the tables (more pieces than the largest
// slice in the folder) says how many the folder holds and which command makes more; anything else
// is the probe library's explanation.
inline std::string probe_failure_text(const probe::Tablebase& tb, const Position& p, const probe::Result& r,
                                      VariantId variant, const std::filesystem::path& folder) {
    if (r.status == probe::Status::missing)
        if (const auto beyond =
                probe::beyond_tables(variant, folder.string(), probe::slices_in(folder).largest_pieces, p, r))
            return tb.to_fen(p) + " (" + r.slice.name() + "): " + *beyond;
    return tb.to_fen(p) + ": " + tb.explain(r);
}

// A whole run's --json object (plan, verify) with the version that made it ("version", as
// `dtb --version` and the server's status say it). stats --json carries none: it is compared
// byte for byte with data/reference across versions; objects a position at a time (probe,
// adjudicate) are the library's, shared with the server and Python.
template <class Json>
Json with_version(Json j) {
    j["version"] = DTB_VERSION;
    return j;
}

// --tables: the tables root every command reads or writes one variant's folder of.
inline void add_tables_option(CLI::App* cmd, std::string& tables) {
    cmd->add_option("--tables", tables,
                    "Tables root holding international/ and turkish/ (default $DTB_TABLES, else data/tb)")
        ->check(not_empty());
}

// One variant's table folder: the one given (--db, --out), else <tables root>/<variant>, the root
// being --tables, else $DTB_TABLES, else data/tb (probe/table_folders.hpp).
inline std::filesystem::path table_folder(const std::string& given, const std::string& tables,
                                          std::string_view variant) {
    if (!given.empty()) return given;
    return probe::tables_root(tables) / std::string(variant);
}

// The variant to read as: --variant when given; else the folder's own when --db names one (its
// tables' headers say it); else the position's, from how its FEN names squares; else
// international. A choice that is not the default is said on stderr.
inline VariantId variant_for(std::string_view command, const std::string& variant, bool variant_given,
                             const std::string& db, const std::vector<std::string>& fens = {}) {
    if (variant_given) return variant_option(variant);
    if (!db.empty()) {
        if (auto v = format::folder_variant(db); v) {
            if (*v != VariantId::international)
                std::cerr << "dtb " << command << ": " << escape_text(db) << " holds " << variant_name(*v)
                          << " tables: reading them as --variant " << variant_name(*v) << "\n";
            return *v;
        }
    }
    for (const std::string& fen : fens)
        if (const auto v = fen_variant(fen)) return *v;
    return VariantId::international;
}

}  // namespace dtb::tools
