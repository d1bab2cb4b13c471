// `dtb serve` as a process of its own for the server tests: started on a free port of loopback
// over the given tables, its stderr in a log, the port read from the line that says where it
// listens. stop() sends SIGTERM and returns the exit status.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace dtb::test {

class ServeProcess {
  public:
    // exe: the dtb executable (the tests' DTB_EXE); name: the log's; options: more of dtb serve's.
    ServeProcess(const std::string& exe, const std::string& tables, const std::string& name,
                 const std::vector<std::string>& options = {}) {
        log_ = std::filesystem::temp_directory_path() / ("dtb_" + name + "_" + std::to_string(::getpid()) + ".log");
        std::vector<std::string> args{exe, "serve", "--tables", tables, "--port", "0"};
        args.insert(args.end(), options.begin(), options.end());
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) throw std::runtime_error("cannot start dtb serve");
        for (int k = 0; k < 600 && port_ == 0; ++k) {
            const std::string text = log_text();
            const auto at = text.find("listening on http://127.0.0.1:");
            if (at != std::string::npos) port_ = std::stoi(text.substr(at + 30));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~ServeProcess() {
        if (pid_ > 0) stop();
        std::error_code ec;
        std::filesystem::remove(log_, ec);
    }
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    int port() const { return port_; }  // 0 when it never said where it listens
    pid_t pid() const { return pid_; }
    std::string log_text() const {
        std::ifstream in(log_);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }
    // SIGTERM, then the wait status.
    int stop() {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = 0;
        return status;
    }

  private:
    std::filesystem::path log_;
    pid_t pid_ = 0;
    int port_ = 0;
};

}  // namespace dtb::test
