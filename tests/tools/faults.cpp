// Faults of every kind against every subcommand: a table folder with a slice missing, a file
// missing, empty, truncated, damaged in each of its parts, another slice's or variant's file
// under the name, a FIFO, a folder or a dangling link under the name, an unreadable file, read
// errors and a full disk injected; two generators on one folder; arguments out of range;
// hostile input in messages. Each case: the documented exit code, a message naming the cause,
// never a crash, a hang or a complete-looking file that is not (README.md, "Exit codes").
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

namespace {

const fs::path& clean_tables(const std::string& variant) {
    return tables_up_to_3(variant);
}

void copy_tables(const fs::path& from, const fs::path& to) {
    for (const auto& e : fs::directory_iterator(from))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.')
            fs::copy_file(e.path(), to / e.path().filename(), fs::copy_options::overwrite_existing);
}

// dtb with extra environment variables, killed after `limit` (timed_out is then set).
struct Outcome {
    RunResult run;
    bool timed_out = false;
};
Outcome run_with(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                 std::chrono::seconds limit = std::chrono::seconds(60)) {
    const auto [out, err] = output_files("faults_run");
    Outcome o;
    o.run = wait_dtb(spawn_dtb(args, out, err, {}, env), out, err, limit, &o.timed_out);
    return o;
}

std::string slurp_or_empty(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void flip_byte(const fs::path& file, std::uintmax_t offset) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(static_cast<char>(c ^ 0x5A));
}

bool no_temporary_files(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (contains(e.path().filename().string(), ".tmp")) return false;
    return true;
}

// Whether file permissions bind this process (they do not for root).
bool permissions_bind(const fs::path& dir) {
    const fs::path probe = dir / "permission-probe";
    std::ofstream(probe) << "x";
    fs::permissions(probe, fs::perms::none);
    const bool binds = ::access(probe.c_str(), R_OK) != 0;
    fs::remove(probe);
    return binds;
}

}  // namespace

TEST_CASE("a whole slice missing: verify and verify --full exit 1 with every problem listed, no crash",
          "[tools][faults]") {
    // KvK is needed by every other slice; KKvK and KvKK by the slices with more pieces; KMvK
    // only by its mirror KvKM (and by promotions into it).
    for (const std::vector<std::string>& removed : {std::vector<std::string>{"KvK"}, {"KKvK", "KvKK"}, {"KMvK"}}) {
        const TempDir db("missing_slice");
        copy_tables(clean_tables("international"), db.path);
        for (const std::string& slice : removed)
            for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd", ".ffjd16"})
                fs::remove(db.path / (slice + ext));
        INFO("removed " << removed.front());
        for (bool full : {false, true}) {
            std::vector<std::string> args{"verify", "--db", db.path.string()};
            if (full) args.push_back("--full");
            const Outcome text = run_with(args);
            INFO(text.run.out << text.run.err);
            CHECK(text.run.signal == 0);
            CHECK(text.run.exit_code == 1);
            CHECK(contains(text.run.out, "FAIL " + removed.front() + ": missing"));
            CHECK(contains(text.run.out, "FAILED: "));
            args.push_back("--json");
            const Outcome json = run_with(args);
            CHECK(json.run.exit_code == 1);
            const auto j = nlohmann::json::parse(json.run.out);
            CHECK(j["ok"] == false);
            bool named = false;
            for (const auto& p : j["problems"])
                named = named || (p["slice"] == removed.front() && contains(p["problem"], "missing"));
            CHECK(named);
            if (full) CHECK(!j["not_checked"].empty());
        }
        // The slices that do not need the missing one are still re-derived.
        if (removed.front() == "KMvK") {
            const Outcome r = run_with({"verify", "--db", db.path.string(), "--full", "--json"});
            const auto j = nlohmann::json::parse(r.run.out);
            CHECK(j["positions_checked"].get<std::uint64_t>() > 0);
            CHECK(j["mismatches"] == 0);
        }
        // stats reads what is there: it fails where a present slice's values need the missing
        // one (captures into KvK; KvKM's Black to move is KMvK's table), not for KKvK, which
        // only promotions reach.
        const Outcome stats = run_with({"stats", "--db", db.path.string()});
        CHECK(stats.run.exit_code == (removed.front() == "KKvK" ? 0 : 3));
    }
    // A folder that holds part of a set, closed under what it needs, is OK: 2 pieces only.
    const TempDir part("part_set");
    for (const char* slice : {"KvK", "KvM", "MvK", "MvM"})
        for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"})
            fs::copy_file(clean_tables("international") / (std::string(slice) + ext),
                          part.path / (std::string(slice) + ext));
    CHECK(run_with({"verify", "--db", part.path.string(), "--full"}).run.exit_code == 0);
}

TEST_CASE("a FIFO, a folder or a dangling link named like a table: nothing blocks", "[tools][faults]") {
    const std::vector<std::pair<std::string, std::function<void(const fs::path&)>>> specials = {
        {"FIFO", [](const fs::path& f) { REQUIRE(::mkfifo(f.c_str(), 0644) == 0); }},
        {"folder", [](const fs::path& f) { fs::create_directory(f); }},
        {"dangling link", [](const fs::path& f) { fs::create_symlink("/nonexistent/table", f); }},
    };
    for (const auto& [kind, make] : specials) {
        const TempDir db("special");
        copy_tables(clean_tables("international"), db.path);
        fs::remove(db.path / "KMvK.wdl");
        make(db.path / "KMvK.wdl");
        INFO(kind);
        const auto limit = std::chrono::seconds(30);
        const Outcome probe = run_with({"probe", "--db", db.path.string(), "W:WK46,27:BK5"}, {}, limit);
        CHECK_FALSE(probe.timed_out);
        CHECK(probe.run.exit_code == 3);
        CHECK(contains(probe.run.err, "KMvK.wdl"));
        const Outcome adjudicate =
            run_with({"adjudicate", "--db", db.path.string(), "--fen", "W:WK46,27:BK5"}, {}, limit);
        CHECK_FALSE(adjudicate.timed_out);
        CHECK(adjudicate.run.exit_code == 3);
        for (bool full : {false, true}) {
            std::vector<std::string> args{"verify", "--db", db.path.string()};
            if (full) args.push_back("--full");
            const Outcome verify = run_with(args, {}, limit);
            CHECK_FALSE(verify.timed_out);
            CHECK(verify.run.exit_code == 1);
            CHECK(contains(verify.run.out, "KMvK.wdl"));
        }
        const Outcome stats = run_with({"stats", "--db", db.path.string()}, {}, limit);
        CHECK_FALSE(stats.timed_out);
        CHECK(stats.run.exit_code == 3);
        // The generator takes the slice as absent and writes it again, over the special file
        // (a folder cannot be replaced by a file: that is an error of its own, not a hang).
        const Outcome gen = run_with({"gen", "--pieces", "3", "--out", db.path.string()}, {}, limit);
        CHECK_FALSE(gen.timed_out);
        if (kind == "folder") {
            CHECK(gen.run.exit_code == 5);
            CHECK(contains(gen.run.err, "KMvK.wdl"));
        } else {
            INFO(gen.run.err);
            CHECK(gen.run.exit_code == 0);
            CHECK(run_with({"verify", "--db", db.path.string()}).run.exit_code == 0);
            CHECK(slurp(db.path / "KMvK.wdl") == slurp(clean_tables("international") / "KMvK.wdl"));
        }
    }
}

TEST_CASE("the fault matrix: every damage against every subcommand", "[tools][faults]") {
    const fs::path& clean = clean_tables("international");
    const std::string file = "KvKM.dtw";  // several blocks: damage in one part leaves others readable
    const auto size = fs::file_size(clean / file);
    REQUIRE(size > 400);
    struct Fault {
        std::string what;
        std::function<void(const fs::path&)> apply;
    };
    std::vector<Fault> faults = {
        {"missing file", [](const fs::path& f) { fs::remove(f); }},
        {"empty file", [](const fs::path& f) { fs::resize_file(f, 0); }},
        {"truncated", [](const fs::path& f) { fs::resize_file(f, fs::file_size(f) * 2 / 3); }},
        {"flipped byte in the header", [](const fs::path& f) { flip_byte(f, 20); }},
        {"flipped byte in the block table", [](const fs::path& f) { flip_byte(f, 72 + 5); }},
        {"flipped byte in a block", [size](const fs::path& f) { flip_byte(f, size / 2); }},
        {"flipped byte in the trailer", [size](const fs::path& f) { flip_byte(f, size - 3); }},
        {"another slice's file",
         [&](const fs::path& f) { fs::copy_file(clean / "KMvK.dtw", f, fs::copy_options::overwrite_existing); }},
        {"another metric's file",
         [&](const fs::path& f) { fs::copy_file(clean / "KvKM.dtc", f, fs::copy_options::overwrite_existing); }},
        {"the other variant's file",
         [&](const fs::path& f) {
             fs::copy_file(clean_tables("turkish") / "KvKM.dtw", f, fs::copy_options::overwrite_existing);
         }},
    };
    const std::string fen = "W:WK46:BK5,27";  // White to move in KvKM: read from its tables
    for (const Fault& fault : faults) {
        const TempDir db("matrix");
        copy_tables(clean, db.path);
        fault.apply(db.path / file);
        INFO(fault.what);
        const Outcome verify = run_with({"verify", "--db", db.path.string()});
        CHECK(verify.run.exit_code == 1);
        CHECK(contains(verify.run.out, file));
        const Outcome full = run_with({"verify", "--db", db.path.string(), "--full", "--json"});
        CHECK(full.run.exit_code == 1);
        CHECK(contains(full.run.out, file));
        const Outcome stats = run_with({"stats", "--db", db.path.string()});
        CHECK(stats.run.exit_code == 3);
        CHECK(contains(stats.run.err, "KvKM"));
        // A probe may miss damage inside a block it does not read; it never gives a wrong
        // value, crashes or hangs.
        const Outcome probe = run_with({"probe", "--db", db.path.string(), "--json", fen});
        CHECK(probe.run.signal == 0);
        CHECK((probe.run.exit_code == 0 || probe.run.exit_code == 3));
        if (probe.run.exit_code == 0) {
            const Outcome reference = run_with({"probe", "--db", clean.string(), "--json", fen});
            CHECK(probe.run.out == reference.run.out);
        } else {
            CHECK(contains(probe.run.err, "KvKM"));
        }
        const Outcome adjudicate = run_with({"adjudicate", "--db", db.path.string(), "--fen", fen});
        CHECK(adjudicate.run.signal == 0);
        CHECK((adjudicate.run.exit_code == 0 || adjudicate.run.exit_code == 3));
        // The generator finds the slice incomplete and writes it again, identical.
        const Outcome gen = run_with({"gen", "--pieces", "3", "--out", db.path.string()});
        INFO(gen.run.err);
        CHECK(gen.run.exit_code == 0);
        CHECK(slurp(db.path / file) == slurp(clean / file));
        CHECK(no_temporary_files(db.path));
    }
}

TEST_CASE("an unreadable table file: exit 3 naming it", "[tools][faults]") {
    const TempDir db("unreadable");
    copy_tables(clean_tables("international"), db.path);
    if (!permissions_bind(db.path)) {
        WARN("skipped: file permissions do not bind this user (root)");
        return;
    }
    fs::permissions(db.path / "KvKM.wdl", fs::perms::none);
    const Outcome probe = run_with({"probe", "--db", db.path.string(), "W:WK46:BK5,27"});
    CHECK(probe.run.exit_code == 3);
    CHECK(contains(probe.run.err, "KvKM.wdl"));
    CHECK(run_with({"verify", "--db", db.path.string()}).run.exit_code == 1);
    CHECK(run_with({"stats", "--db", db.path.string()}).run.exit_code == 3);
}

TEST_CASE("read errors injected: exit 3 or 1 naming the file, never a value",
          "[tools][faults][injected][plain-build]") {
    const fs::path& clean = clean_tables("international");
    const std::string preload = "LD_PRELOAD=" + std::string(DTB_FAULT_LIB);
    const std::vector<std::string> env{preload, "DTB_FAULT_READ_EIO=KvKM.wdl"};
    const Outcome probe = run_with({"probe", "--db", clean.string(), "W:WK46:BK5,27"}, env);
    INFO(probe.run.out << probe.run.err);
    CHECK(probe.run.exit_code == 3);
    CHECK(contains(probe.run.err, "KvKM.wdl"));
    CHECK(contains(probe.run.err, "Input/output error"));
    CHECK(probe.run.out.empty());
    const Outcome verify = run_with({"verify", "--db", clean.string()}, env);
    CHECK(verify.run.exit_code == 1);
    CHECK(contains(verify.run.out, "KvKM.wdl"));
    CHECK(run_with({"stats", "--db", clean.string()}, env).run.exit_code == 3);
    // The same run without the fault answers.
    CHECK(run_with({"probe", "--db", clean.string(), "W:WK46:BK5,27"}, {preload}).run.exit_code == 0);
}

TEST_CASE("a full disk while dtb gen writes (injected): exit 5, no table left looking complete, a rerun completes",
          "[tools][faults][injected][plain-build]") {
    const fs::path& clean = clean_tables("international");
    const TempDir db("disk_full");
    const std::string preload = "LD_PRELOAD=" + std::string(DTB_FAULT_LIB);
    // Writes of KMvK's tables fail: the 2-piece slices and the pairs before it are written.
    const Outcome full =
        run_with({"gen", "--pieces", "3", "--out", db.path.string()}, {preload, "DTB_FAULT_WRITE_ENOSPC=KMvK."});
    INFO(full.run.err);
    CHECK(full.run.exit_code == 5);
    CHECK(contains(full.run.err, "No space left on device"));
    CHECK(contains(full.run.err, "KMvK"));
    CHECK_FALSE(fs::exists(db.path / "KMvK.wdl"));
    CHECK(no_temporary_files(db.path));
    // What was written is complete and valid; what was not is missing, which verify reports.
    CHECK(run_with({"verify", "--db", db.path.string()}).run.exit_code == 1);
    const Outcome again = run_with({"gen", "--pieces", "3", "--out", db.path.string()});
    CHECK(again.run.exit_code == 0);
    CHECK(file_names(db.path) == file_names(clean));
    for (const std::string& n : file_names(clean)) {
        INFO(n);
        CHECK(slurp(db.path / n) == slurp(clean / n));
    }
}

TEST_CASE("a small file system: dtb gen refuses before writing, a rerun with room completes", "[tools][faults]") {
    const TempDir mount_point("tmpfs");
    if (::mount("tmpfs", mount_point.path.c_str(), "tmpfs", 0, "size=256k") != 0) {
        WARN("skipped: cannot mount a tmpfs here (" << std::strerror(errno) << ")");
        return;
    }
    struct Unmount {
        fs::path p;
        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mount_point.path};
    const Outcome small = run_with({"gen", "--pieces", "3", "--out", mount_point.path.string()});
    INFO(small.run.err);
    CHECK(small.run.exit_code == 5);
    CHECK(contains(small.run.err, "disk"));
    CHECK(no_temporary_files(mount_point.path));
    REQUIRE(::mount("tmpfs", mount_point.path.c_str(), "tmpfs", MS_REMOUNT, "size=64m") == 0);
    const Outcome again = run_with({"gen", "--pieces", "3", "--out", mount_point.path.string()});
    CHECK(again.run.exit_code == 0);
    for (const std::string& n : file_names(clean_tables("international"))) {
        INFO(n);
        CHECK(slurp(mount_point.path / n) == slurp(clean_tables("international") / n));
    }
}

TEST_CASE("two dtb gen on one folder: the second exits 4, or waits with --wait; files identical", "[tools][faults]") {
    const TempDir db("two_runs");
    copy_tables(clean_tables("international"), db.path);
    // A 4-piece pair on one thread: long enough for the second run to meet the first.
    const std::vector<std::string> gen{"gen",       "--pieces", "4",     "--only",        "KKvKK",
                                       "--threads", "1",        "--out", db.path.string()};
    const fs::path out = db.path.string() + ".first.out", err = db.path.string() + ".first.err";
    const pid_t first = spawn_dtb(gen, out, err);
    // The first run holds the lock once the lock file names it.
    const auto start = std::chrono::steady_clock::now();
    while (slurp_or_empty(db.path / ".dtb-gen.lock").empty() &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const Outcome second = run_with(gen);
    auto waiting = gen;
    waiting.push_back("--wait");
    const Outcome third = run_with(waiting);
    const RunResult first_result = wait_dtb(first, out, err);
    INFO(second.run.err);
    CHECK(first_result.exit_code == 0);
    CHECK(second.run.exit_code == 4);
    CHECK(contains(second.run.err, "another dtb gen (pid " + std::to_string(first) + ")"));
    INFO(third.run.err);
    CHECK(third.run.exit_code == 0);
    CHECK(contains(third.run.err, "waiting"));
    CHECK(contains(third.run.err, "KKvKK: present and valid, skipped"));
    CHECK(no_temporary_files(db.path));
    CHECK(run_with({"verify", "--db", db.path.string()}).run.exit_code == 0);
}

TEST_CASE("arguments out of range or malformed: exit 2 before anything is created", "[tools][faults]") {
    const TempDir base("arguments");
    const std::string out = (base.path / "out").string();
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"verify", "--threads", "100000"}, "out of range"},
        {{"verify", "--threads", "-1"}, "out of range"},
        {{"stats", "--threads", "0x10"}, "not a whole number"},
        {{"gen", "--pieces", "3", "--threads", "2000", "--out", out}, "out of range"},
        {{"gen", "--pieces", "3", "--memory", "-1", "--out", out}, "not a memory size"},
        {{"gen", "--pieces", "3", "--memory", "-5", "--out", out}, "not a memory size"},
        {{"gen", "--pieces", "3", "--memory", "", "--out", out}, "not a memory size"},
        {{"gen", "--pieces", "3", "--memory", "18446744073709551617", "--out", out}, "not a memory size"},
        {{"gen", "--pieces", "0x3", "--out", out}, "not a whole number"},
        {{"gen", "--pieces", "9", "--out", out}, "out of range"},
        {{"gen", "--only", "KKKvK", "--pieces", "2", "--out", out}, "more than --pieces 2"},
        {{"gen", "--only", "Nonsense", "--pieces", "2", "--out", out}, "not a slice name"},
        {{"gen", "--variant", "turkish", "--only", "KvK", "--pieces", "2", "--zstd-level", "23", "--out", out},
         "out of range"},
        {{"adjudicate", "--fen", "W:WK1:BK50", "--reversible", ""}, "not a whole number"},
        {{"adjudicate", "--fen", "W:WK1:BK50", "--reversible", "0x10"}, "not a whole number"},
        {{"adjudicate", "--fen", "W:WK1:BK50", "--endgame", "-3"}, "out of range"},
        {{"adjudicate", "--fen", "W:WK1:BK50", "--small", "1e3"}, "not a whole number"},
        {{"probe", "--cache-mb", "-1", "W:WK1:BK50"}, "out of range"},
        {{"perft", "--depth", "+3"}, "not a whole number"},
    };
    for (const Case& c : cases) {
        const Outcome r = run_with(c.args);
        INFO(c.args.front() << " " << c.args[1] << " " << c.args[2] << "\n" << r.run.err);
        CHECK(r.run.exit_code == 2);
        CHECK(contains(r.run.err, c.message));
        CHECK_FALSE(fs::exists(out));
    }
    // Too little memory for the slices asked for is a usage error too.
    const Outcome memory = run_with({"gen", "--pieces", "3", "--memory", "1", "--out", out});
    CHECK(memory.run.exit_code == 2);
    CHECK(contains(memory.run.err, "--memory 1"));
}

TEST_CASE("a folder of the other variant: read as its own variant, or a message naming both", "[tools][faults]") {
    const fs::path& turkish = clean_tables("turkish");
    const Outcome probe = run_with({"probe", "--db", turkish.string(), "W:Wd4:Bd6"});
    INFO(probe.run.err);
    CHECK(probe.run.exit_code == 0);
    CHECK(contains(probe.run.err, "holds turkish tables"));
    CHECK(run_with({"verify", "--db", turkish.string()}).run.exit_code == 0);
    CHECK(run_with({"stats", "--db", turkish.string()}).run.exit_code == 0);
    const Outcome forced = run_with({"probe", "--variant", "international", "--db", turkish.string(), "W:W31:B5"});
    CHECK(forced.run.exit_code == 3);
    CHECK(contains(forced.run.err, "a table of turkish draughts, not international (--variant turkish reads it)"));
    const Outcome verify = run_with({"verify", "--variant", "international", "--db", turkish.string()});
    CHECK(verify.run.exit_code == 1);
    CHECK(contains(verify.run.out, "--variant turkish"));
}

TEST_CASE("messages: short, escaped, and input checked before tables", "[tools][faults]") {
    const TempDir base("messages");
    // A 130 KB FEN gives a short message.
    std::string big = "W:W";
    for (int i = 0; i < 40000; ++i) big += "12,";
    big += ":B5";
    const Outcome huge = run_with({"probe", big});
    CHECK(huge.run.exit_code == 2);
    CHECK(huge.run.err.size() < 400);
    // Escape sequences, control characters and bytes that are not UTF-8 are not printed raw.
    for (const std::string& hostile :
         {std::string("W:W\x1b[31m:B5"), std::string("W:W\x07\x01:B5"), std::string("W:W\xff\xfe:B5"),
          std::string("W:W\xc2\x9b"
                      "31m:B5")}) {
        const Outcome r = run_with({"probe", hostile});
        CHECK(r.run.exit_code == 2);
        for (unsigned char c : r.run.err) CHECK((c == '\n' || (c >= 0x20 && c != 0x7f && c != 0xff && c != 0xfe)));
        CHECK_FALSE(contains(r.run.err, "\xc2\x9b"));
        CHECK(contains(r.run.err, "\\x"));
    }
    // An empty range item names itself, not an empty square.
    const Outcome range = run_with({"probe", "W:W-1:B5"});
    CHECK(range.run.exit_code == 2);
    CHECK(contains(range.run.err, "'-1'"));
    CHECK_FALSE(contains(range.run.err, "''"));
    // Malformed input with no table folder at all: exit 2, not 3.
    const std::string none = (base.path / "no-tables").string();
    CHECK(run_with({"probe", "--db", none, "W:W99:B5"}).run.exit_code == 2);
    CHECK(run_with({"adjudicate", "--db", none, "--fen", "X:W1"}).run.exit_code == 2);
    CHECK(run_with({"adjudicate", "--db", none, "--pdn", (base.path / "none.pdn").string()}).run.exit_code == 2);
    // A folder as a PDN file; a device without end.
    const Outcome folder = run_with({"adjudicate", "--pdn", base.path.string()});
    CHECK(folder.run.exit_code == 2);
    CHECK(contains(folder.run.err, "is a folder"));
    const Outcome endless = run_with({"adjudicate", "--pdn", "/dev/zero"}, {}, std::chrono::seconds(60));
    CHECK_FALSE(endless.timed_out);
    CHECK(endless.run.exit_code == 2);
    CHECK(contains(endless.run.err, "larger than the 64 MiB"));
    // 1 MB of PDN in one bad token gives a short message.
    const fs::path pdn = base.path / "big.pdn";
    std::ofstream(pdn) << "[Event \"x\"]\n1. " << std::string(1 << 20, 'q') << " *\n";
    const Outcome big_pdn =
        run_with({"adjudicate", "--db", clean_tables("international").string(), "--pdn", pdn.string()});
    CHECK(big_pdn.run.exit_code == 2);
    CHECK(big_pdn.run.out.size() + big_pdn.run.err.size() < 4000);
}
