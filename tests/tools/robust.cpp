// Robustness of the dtb executable against what happens to files on real machines: a generator
// killed with SIGKILL in the middle of a slice, and table files that are truncated, empty, of the
// other variant, renamed, or have a flipped bit. Nothing may crash, nothing damaged may pass.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

namespace {

const fs::path& tables3(const std::string& variant) {
    return tables_up_to_3(variant);
}

bool any_tmp(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".tmp") return true;
    return false;
}

void copy_all(const fs::path& from, const fs::path& to) {
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

void flip_bit(const fs::path& file, std::uintmax_t offset) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.get(c);
    c = static_cast<char>(c ^ 0x10);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put(c);
}

}  // namespace

TEST_CASE("dtb gen killed by SIGKILL mid-slice: the rerun gives byte-identical tables", "[tools][robust]") {
    // Two 4-piece slices (three with the mirror) on top of the 3-piece ones, one thread: KvKKK
    // and its mirror KKKvK are finished and KKvKK is being solved (or written) when the first run
    // is killed.
    const std::vector<std::string> gen{"gen", "--variant", "international", "--pieces", "4",    "--threads",
                                       "1",   "--only",    "KvKKK",         "--only",   "KKvKK"};
    auto with_out = [&](const fs::path& d) {
        auto args = gen;
        args.insert(args.end(), {"--out", d.string()});
        return args;
    };
    const TempDir killed("killed"), straight("straight");
    copy_all(tables3("international"), killed.path);
    copy_all(tables3("international"), straight.path);

    const fs::path out = killed.path.string() + ".out", err = killed.path.string() + ".err";
    const pid_t pid = spawn_dtb(with_out(killed.path), out, err);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::optional<Clock::time_point> first_done;
    bool exited = false, saw_tmp = false;
    for (;;) {
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            break;
        }
        // The pair is complete once both sides' WDL files (written last) are in place.
        if (!first_done && fs::exists(killed.path / "KvKKK.wdl") && fs::exists(killed.path / "KKKvK.wdl"))
            first_done = Clock::now();
        // Kill while a file is being written, or else well inside the solving of KKvKK.
        if (first_done && (any_tmp(killed.path) || Clock::now() - *first_done > std::chrono::milliseconds(300))) {
            saw_tmp = any_tmp(killed.path);
            break;
        }
        if (Clock::now() - start > std::chrono::seconds(60)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE_FALSE(exited);  // the run must still be going when it is killed
    ::kill(pid, SIGKILL);
    const RunResult k = wait_dtb(pid, out, err);
    CHECK(k.signal == SIGKILL);
    REQUIRE(first_done);
    CHECK_FALSE(fs::exists(killed.path / "KKvKK.wdl"));  // killed in the middle of that slice
    // A half-written table left by a kill during a write: the rerun must not take it as complete.
    if (!saw_tmp) {
        std::ofstream(killed.path / "KKvKK.dtc.tmp", std::ios::binary)
            << slurp(killed.path / "KvKKK.dtc").substr(0, 1000);
    }
    INFO("killed while writing: " << saw_tmp);

    const RunResult again = run_dtb(with_out(killed.path));
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(again.err.find("KvKKK: present and valid, skipped") != std::string::npos);
    const RunResult whole = run_dtb(with_out(straight.path));
    REQUIRE(whole.exit_code == 0);

    const auto names = file_names(killed.path);
    CHECK(names == file_names(straight.path));
    for (const std::string& n : names) {
        INFO(n);
        CHECK(fs::path(n).extension() != ".tmp");
        CHECK(slurp(killed.path / n) == slurp(straight.path / n));
    }
    // wdl, dtw, dtc and the two rule tables (fmjd, ffjd) of international slices.
    CHECK(std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.find("KKvKK.") == 0; }) == 5);
}

TEST_CASE("damaged tables: verify and verify --full exit 1 naming the file, nothing crashes", "[tools][robust]") {
    const fs::path& clean = tables3("international");
    const fs::path& turkish = tables3("turkish");
    struct Damage {
        std::string what, file;
        std::function<void(const fs::path&)> apply;
    };
    const std::string big = "KvKM.dtw";  // several blocks' worth of bytes
    const auto size = fs::file_size(clean / big);
    REQUIRE(size > 400);
    std::vector<Damage> damages = {
        {"truncated to half", "MvKK.wdl", [](const fs::path& f) { fs::resize_file(f, fs::file_size(f) / 2); }},
        {"last byte cut", "MvKK.dtc", [](const fs::path& f) { fs::resize_file(f, fs::file_size(f) - 1); }},
        {"zero length", "KvK.wdl", [](const fs::path& f) { fs::resize_file(f, 0); }},
        {"the Turkish table", "KvK.dtw",
         [&](const fs::path& f) { fs::copy_file(turkish / "KvK.dtw", f, fs::copy_options::overwrite_existing); }},
        {"missing", "MMvK.dtc", [](const fs::path& f) { fs::remove(f); }},
        {"a byte appended", "MvM.wdl",
         [](const fs::path& f) { std::ofstream(f, std::ios::app | std::ios::binary) << 'x'; }},
    };
    // Bit flips: variant byte, metric byte, entry count, header hash, block table, payload,
    // file hash, end magic.
    for (std::uintmax_t offset : {std::uintmax_t{12}, std::uintmax_t{14}, std::uintmax_t{33}, std::uintmax_t{66},
                                  std::uintmax_t{80}, size / 2, size - 12, size - 1})
        damages.push_back({"bit flipped at byte " + std::to_string(offset), big,
                           [offset](const fs::path& f) { flip_bit(f, offset); }});

    for (const Damage& d : damages) {
        const TempDir db("damaged");
        copy_all(clean, db.path);
        d.apply(db.path / d.file);
        const std::string path = (db.path / d.file).string();
        INFO(d.what << ": " << d.file);
        for (bool full : {false, true}) {
            std::vector<std::string> args{"verify", "--db", db.path.string()};
            if (full) args.push_back("--full");
            const RunResult r = run_dtb(args);
            INFO("verify" << (full ? " --full" : "") << "\n" << r.out << r.err);
            CHECK(r.signal == 0);
            CHECK(r.exit_code == 1);
            CHECK(r.out.find(path) != std::string::npos);
        }
        const RunResult s = run_dtb({"stats", "--db", db.path.string()});
        INFO("stats: " << s.err);
        CHECK(s.signal == 0);
        CHECK(s.exit_code == 3);
        CHECK(s.err.find(d.file) != std::string::npos);
        // Probing may answer (the damage can be in a block it does not read) or refuse, never
        // crash.
        const RunResult p = run_dtb({"probe", "--db", db.path.string(), "W:WK1:BK50", "W:W28:BK19,K40",
                                     "B:W28:BK19,K40", "W:W33:B18", "W:WK3,42:B23", "B:WK3,42:B23"});
        INFO("probe: " << p.out << p.err);
        CHECK(p.signal == 0);
        CHECK((p.exit_code == 0 || p.exit_code == 3));
    }
}

TEST_CASE("a valid table under another slice's or metric's name is caught by verify", "[tools][robust]") {
    // Same number of entries and valid checksums: only the header's material and metric fields
    // tell these files apart from the right ones.
    const fs::path& clean = tables3("international");
    for (auto [from, to] : {std::pair{"KMvK.dtw", "KvKM.dtw"}, std::pair{"KvKM.dtc", "KvKM.dtw"}}) {
        const TempDir db("renamed");
        copy_all(clean, db.path);
        fs::copy_file(clean / from, db.path / to, fs::copy_options::overwrite_existing);
        INFO(from << " copied to " << to);
        for (bool full : {false, true}) {
            std::vector<std::string> args{"verify", "--db", db.path.string()};
            if (full) args.push_back("--full");
            const RunResult r = run_dtb(args);
            INFO("verify" << (full ? " --full" : "") << "\n" << r.out << r.err);
            CHECK(r.signal == 0);
            CHECK(r.exit_code == 1);
            CHECK(r.out.find(to) != std::string::npos);
        }
    }
}
