// Running the dtb executable (DTB_EXE) from the tools tests: without a shell, output captured,
// and a crash told apart from an exit code.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/support/file_compare_support.hpp"
#include "tests/support/temp_dir.hpp"

extern char** environ;

namespace dtb::test {

namespace fs = std::filesystem;

struct RunResult {
    int exit_code = -1;  // -1 when killed by a signal
    int signal = 0;
    std::string out, err;
};

// Starts `dtb args...` with stdin from /dev/null, stdout and stderr going to out_file and
// err_file, in folder cwd when it is given, with extra_env ("NAME=value") added to the
// environment; returns its pid.
inline pid_t spawn_dtb(const std::vector<std::string>& args, const fs::path& out_file, const fs::path& err_file,
                       const fs::path& cwd = {}, const std::vector<std::string>& extra_env = {}) {
    std::vector<std::string> argv_s{DTB_EXE};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s(extra_env);
    for (char** e = environ; *e; ++e) env_s.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    // After the opens, so that relative output paths still name the caller's folder.
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + std::string(DTB_EXE));
    return pid;
}

// Waits for dtb to end, killing it after `limit` (timed_out is then set); its output read and
// its files removed.
inline RunResult wait_dtb(pid_t pid, const fs::path& out_file, const fs::path& err_file,
                          std::chrono::seconds limit = std::chrono::hours(24), bool* timed_out = nullptr) {
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        if (std::chrono::steady_clock::now() - start > limit) {
            if (timed_out) *timed_out = true;
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    RunResult r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = slurp(out_file);
    r.err = slurp(err_file);
    fs::remove(out_file);
    fs::remove(err_file);
    return r;
}

// Fresh names for a run's captured output, unique in the process.
inline std::pair<fs::path, fs::path> output_files(const std::string& what) {
    static std::atomic<int> counter{0};
    const fs::path base = fs::temp_directory_path() /
                          ("dtb_" + what + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    return {base.string() + ".out", base.string() + ".err"};
}

// Runs `dtb args...` to the end, in folder cwd when it is given.
inline RunResult run_dtb(const std::vector<std::string>& args, const fs::path& cwd = {}) {
    const auto [out, err] = output_files("tools_run");
    return wait_dtb(spawn_dtb(args, out, err, cwd), out, err);
}

// Tables up to 3 pieces of `variant`, made once per process with one thread.
inline const fs::path& tables_up_to_3(const std::string& variant) {
    static std::map<std::string, std::unique_ptr<TempDir>> dirs;
    auto& d = dirs[variant];
    if (!d) {
        d = std::make_unique<TempDir>("tables3_" + variant);
        const RunResult r =
            run_dtb({"gen", "--variant", variant, "--pieces", "3", "--threads", "1", "--out", d->path.string()});
        if (r.exit_code != 0) throw std::runtime_error("dtb gen failed: " + r.err);
    }
    return d->path;
}

// Every table file of a folder (not the generator's lock), by name.
inline std::vector<std::string> file_names(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && is_table_entry(e)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace dtb::test
