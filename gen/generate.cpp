// The driver: every pair up to N pieces in dependency order, each run through its named steps
// (gen/pair_steps.hpp), the finished slices a later pair reads kept in memory until then.
#include "dtb/gen/generate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "dtb/format/format.hpp"
#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/folder_lock.hpp"
#include "dtb/gen/mapping_cache.hpp"
#include "dtb/gen/pair_steps.hpp"
#include "dtb/gen/pair_worker.hpp"
#include "dtb/gen/run_progress.hpp"
#include "dtb/gen/run_request.hpp"
#include "dtb/probe/folder_variant.hpp"

namespace dtb::gen {

namespace {

// What killed runs left: temporary table files (format::is_temporary_name). Only a run that holds
// the folder's lock may remove them; no other writes there.
format::Status remove_temporary_files(const std::filesystem::path& dir) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (!format::is_temporary_name(entry.path().filename().string())) continue;
        std::error_code rm;
        std::filesystem::remove(entry.path(), rm);
        if (rm)
            return format::Status(
                Error{"cannot remove " + entry.path().string() + ": " + rm.message(), ErrorKind::system});
    }
    if (ec) return format::Status(Error{"cannot list " + dir.string() + ": " + ec.message(), ErrorKind::system});
    return {};
}

template <class R>
class Driver {
  public:
    Driver(const GenerateOptions& o, const GenerateEvents& e)
        : o_(o), e_(e), steps_(o, e, [this](const Material& x) { return last_use_.count(x) != 0; }) {}

    Expected<GenerateSummary> run() {
        const auto t0 = std::chrono::steady_clock::now();
        auto wanted = check_request<R>(o_);
        if (!wanted) return Error{wanted.error(), wanted.error_kind()};
        auto lock = open_run_folder(o_, e_);
        if (!lock) return Error{lock.error(), lock.error_kind()};
        // The slices to solve (each with its mirror), and the last of them that reads each input.
        const std::vector<Material> order = pairs_in_order<R>(o_.max_pieces, *wanted);
        for (std::size_t k = 0; k < order.size(); ++k)
            for (const Material& x : inputs_of_pair(order[k])) last_use_[x] = k;
        RunProgress run_progress;
        for (const Material& m : order) run_progress.positions_left += positions_of_pair<R>(m);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Material& m = order[k];
            const std::uint64_t pair_positions = positions_of_pair<R>(m);
            run_progress.positions_left -= pair_positions;
            if (complete_on_disk<R>(o_.out_dir, m) && complete_on_disk<R>(o_.out_dir, m.mirrored())) {
                ++summary_.slices_skipped;
                log(m.name() + ": present and valid, skipped");
            } else {
                const auto t_pair = std::chrono::steady_clock::now();
                auto r = steps_.solve_and_write(m);
                if (!r) return Error{r.error(), r.error_kind()};
                summary_.add_pair(*r);
                log(r->line);
                run_progress.seconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pair).count();
                run_progress.positions_done += pair_positions;
                log(run_progress.line(k + 1, order.size(), summary_.slices_skipped, summary_.slices_generated));
            }
            // Memory holds only the finished slices that a later slice still reads.
            for (const Material& x : inputs_of_pair(m))
                if (last_use_.at(x) == k) steps_.forget(x);
        }
        summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return summary_;
    }

  private:
    void log(const std::string& s) {
        if (e_.log) e_.log(s);
    }

    const GenerateOptions& o_;
    const GenerateEvents& e_;
    std::map<Material, std::size_t> last_use_;  // input -> the last slice (in run order) reading it
    PairSteps<R> steps_;
    GenerateSummary summary_;
};

}  // namespace

Expected<FolderLock> open_run_folder(const GenerateOptions& o, const GenerateEvents& e) {
    if (o.out_dir.empty()) return Error{"the output folder is empty: name a folder", ErrorKind::bad_input};
    // A folder of the other variant's tables is never written over: its smaller tables would be
    // replaced while the larger ones that depend on them stay.
    if (const auto held = format::folder_variant(o.out_dir); held && *held != o.variant)
        return Error{o.out_dir.string() + " holds " + std::string(variant_name(*held)) + " tables; " +
                         std::string(variant_name(o.variant)) + " tables go to a folder of their own (--out data/tb/" +
                         std::string(variant_name(o.variant)) + ", the default)",
                     ErrorKind::bad_input};
    std::error_code ec;
    if (std::filesystem::exists(o.out_dir, ec) && !std::filesystem::is_directory(o.out_dir, ec))
        return Error{o.out_dir.string() + " is not a folder", ErrorKind::bad_input};
    std::filesystem::create_directories(o.out_dir, ec);
    if (ec) return Error{"cannot create " + o.out_dir.string() + ": " + ec.message(), ErrorKind::system};
    auto lock = FolderLock::take(o.out_dir, o.wait_for_lock, e.log);
    if (!lock) return Error{lock.error(), lock.error_kind()};
    if (format::Status s = remove_temporary_files(o.out_dir); !s) return s.as_error();
    return lock;
}

std::string describe_parts(const PartSeconds& parts, const std::string& rules_detail) {
    const auto secs_of = [&](const std::string& name) -> const double* {
        for (const auto& [part, secs] : parts)
            if (part == name) return &secs;
        return nullptr;
    };
    const auto fixed = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return std::string(buf);
    };
    std::string out;
    const auto add = [&](const std::string& name, const std::string& inner) {
        const double* secs = secs_of(name);
        if (!secs) return;
        out += (out.empty() ? "" : ", ") + name + " " + fixed(*secs) + " s" + (inner.empty() ? "" : " (" + inner + ")");
    };
    std::string solve_inner;
    const auto add_kind = [&](const std::string& kind) {
        if (const double* secs = secs_of(kind))
            solve_inner += (solve_inner.empty() ? "" : ", ") + kind + " " + fixed(*secs);
    };
    for (const char* kind : kSolveKinds) add_kind(kind);
    add_kind("other");
    const double* rules_written = secs_of("rule tables written");
    add("inputs read", "");
    add("solve", solve_inner);
    add("distances written", "");
    add("rule tables", (rules_written ? "written " + fixed(*rules_written) + " s" : "") + rules_detail);
    add("WDL written", "");
    return out;
}

Expected<GenerateSummary> generate(const GenerateOptions& options, const GenerateEvents& events) {
    return with_variant(options.variant, [&](auto v) -> Expected<GenerateSummary> {
        return Driver<decltype(v)>(options, events).run();
    });
}

}  // namespace dtb::gen
