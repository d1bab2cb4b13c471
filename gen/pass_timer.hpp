// Seconds spent in each kind of pass of a solve ("seed", "dtw", "dtc seed", "dtc", ...), which
// the slice line reports as its time parts (gen/pair_report.hpp).
#pragma once
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace dtb::gen {

// (kind, seconds), in the order the kinds first ran.
using PassSeconds = std::vector<std::pair<std::string, double>>;

// Adds the time of a pass to its kind: the pass name without its level number ("dtw 12" is
// "dtw").
class PassTimer {
  public:
    PassTimer(PassSeconds& all, const std::string& pass)
        : all_(all),
          kind_(pass.substr(0, pass.find_last_not_of("0123456789 ") + 1)),
          start_(std::chrono::steady_clock::now()) {}
    ~PassTimer() {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        auto it = std::find_if(all_.begin(), all_.end(), [&](const auto& e) { return e.first == kind_; });
        if (it == all_.end())
            all_.emplace_back(kind_, s);
        else
            it->second += s;
    }
    PassTimer(const PassTimer&) = delete;
    PassTimer& operator=(const PassTimer&) = delete;

  private:
    PassSeconds& all_;
    std::string kind_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace dtb::gen
