#include "dtb/mpi/distributed_gen.hpp"

#include <mpi.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_schedule.hpp"
#include "dtb/gen/pair_worker.hpp"
#include "dtb/gen/run_progress.hpp"

namespace dtb::mpi {

namespace {

// Message tags. Rank 0 sends assign and stop; the other ranks send note, done and failed.
enum Tag : int { kAssign = 1, kStop = 2, kNote = 3, kDone = 4, kFailed = 5 };

// Rank 0 notes the pairs in flight in this file of the output folder while the job runs, so that a
// rerun after the job was killed can say what it was solving; a run that ends removes it.
constexpr const char* kInFlightFile = ".dtb-gen-in-flight";

// Waiting ranks poll instead of blocking in MPI, whose blocking calls spin a core that the ranks
// solving pairs on the same node need.
constexpr auto kPollInterval = std::chrono::milliseconds(2);

void send(int to, Tag tag, const std::string& text) {
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// The next message from `from` (MPI_ANY_SOURCE: anyone), if one has arrived.
struct Message {
    int from = 0;
    int tag = 0;
    std::string text;
};
std::optional<Message> poll(int from) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (!flag) return std::nullopt;
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    Message m{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(count), '\0')};
    MPI_Recv(m.text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return m;
}

// An error on the wire: its kind, a newline, its message.
std::string encode_error(const Error& e) {
    return std::to_string(static_cast<int>(e.kind)) + "\n" + e.message;
}
Error decode_error(const std::string& s) {
    const auto nl = s.find('\n');
    if (nl == std::string::npos) return Error{s, ErrorKind::unspecified};
    return Error{s.substr(nl + 1), static_cast<ErrorKind>(std::atoi(s.substr(0, nl).c_str()))};
}

// A pair's outcome on the wire: counts, its parts (name, tab, seconds), a blank line, its slice line.
std::string encode_outcome(const gen::PairOutcome& o) {
    std::ostringstream out;
    out << o.positions << ' ' << o.entries << ' ' << o.bytes << '\n';
    for (const auto& [name, secs] : o.parts) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", secs);
        out << name << '\t' << buf << '\n';
    }
    out << '\n' << o.line;
    return out.str();
}
gen::PairOutcome decode_outcome(const std::string& s) {
    gen::PairOutcome o;
    std::istringstream in(s);
    in >> o.positions >> o.entries >> o.bytes;
    std::string row;
    std::getline(in, row);
    while (std::getline(in, row) && !row.empty()) {
        const auto tab = row.find('\t');
        if (tab != std::string::npos)
            o.parts.emplace_back(row.substr(0, tab), std::strtod(row.c_str() + tab + 1, nullptr));
    }
    std::getline(in, o.line, '\0');
    return o;
}

// Rank 0's error, if it has one, learnt by every rank (collective: every rank calls it).
std::optional<Error> shared_error(const std::optional<Error>& on_rank_0) {
    std::string text = on_rank_0 ? encode_error(*on_rank_0) : "";
    int size = static_cast<int>(text.size());
    MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (size == 0) return std::nullopt;
    text.resize(static_cast<std::size_t>(size));
    MPI_Bcast(text.data(), size, MPI_CHAR, 0, MPI_COMM_WORLD);
    return decode_error(text);
}

// Rank 0's lines, from its main thread and its worker's thread, one at a time.
class Reporter {
  public:
    explicit Reporter(const DistributedEvents& e) : e_(e) {}
    void log(const std::string& s) {
        std::lock_guard lock(mutex_);
        if (e_.log) e_.log(s);
    }
    void in_flight(const std::string& s) {
        std::lock_guard lock(mutex_);
        if (e_.in_flight) e_.in_flight(s);
    }

  private:
    const DistributedEvents& e_;
    std::mutex mutex_;
};

// Rank 0's own worker, on a thread of its own while the main thread schedules and talks MPI.
class LocalWorker {
  public:
    explicit LocalWorker(gen::PairWorker& worker) : worker_(worker), thread_([this] { loop(); }) {}
    ~LocalWorker() {
        if (!thread_.joinable()) return;
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    LocalWorker(const LocalWorker&) = delete;
    LocalWorker& operator=(const LocalWorker&) = delete;

    void start(const std::string& pair) {
        {
            std::lock_guard lock(mutex_);
            job_ = pair;
        }
        wake_.notify_all();
    }
    // The outcome of the pair it was given, once it is there; waits up to `wait` for it.
    std::optional<Expected<gen::PairOutcome>> result(std::chrono::milliseconds wait) {
        std::unique_lock lock(mutex_);
        done_.wait_for(lock, wait, [&] { return result_.has_value(); });
        return std::exchange(result_, std::nullopt);
    }
    // Leaves the thread to the process (a failed job is about to be aborted while it solves).
    void abandon() { thread_.detach(); }

  private:
    void loop() {
        for (;;) {
            std::string pair;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || job_; });
                if (stop_) return;
                pair = std::move(*job_);
                job_.reset();
            }
            auto r = worker_.solve(pair);
            {
                std::lock_guard lock(mutex_);
                result_.emplace(std::move(r));
            }
            done_.notify_all();
        }
    }

    gen::PairWorker& worker_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::optional<std::string> job_;
    std::optional<Expected<gen::PairOutcome>> result_;
    bool stop_ = false;
    std::thread thread_;
};

// Rank 0: hands out pairs, gathers outcomes, reports.
class Coordinator {
  public:
    Coordinator(const gen::GenerateOptions& o, Reporter& reporter, gen::PairSchedule schedule, gen::PairWorker& worker)
        : o_(o), reporter_(reporter), schedule_(std::move(schedule)), local_(worker), since_(schedule_.workers()) {
        for (const auto& pair : schedule_.pairs()) {
            if (pair.complete) {
                ++summary_.slices_skipped;
            } else {
                progress_.positions_left += pair.positions;
            }
        }
    }

    // The run to its end, or the first error (naming the pair and the rank).
    Expected<gen::GenerateSummary> run() {
        start_ = Clock::now();
        log(std::to_string(schedule_.remaining()) + " pairs to solve over " + std::to_string(schedule_.workers()) +
            " ranks (" + std::to_string(summary_.slices_skipped) + " present)");
        hand_out();
        while (!schedule_.done()) {
            bool busy = false;
            while (auto m = poll(MPI_ANY_SOURCE)) {
                busy = true;
                if (m->tag == kNote) {
                    log("rank " + std::to_string(m->from) + ": " + m->text);
                } else if (m->tag == kDone) {
                    finished(m->from, decode_outcome(m->text));
                } else if (m->tag == kFailed) {
                    return failed(m->from, decode_error(m->text));
                }
            }
            if (auto r = local_.result(busy ? std::chrono::milliseconds(0) : kPollInterval)) {
                if (!*r) return failed(0, Error{r->error(), r->error_kind()});
                finished(0, std::move(r->value()));
            }
        }
        summary_.seconds = seconds_since(start_);
        std::error_code ec;
        std::filesystem::remove(o_.out_dir / kInFlightFile, ec);
        return summary_;
    }

    void abandon_local() { local_.abandon(); }

  private:
    using Clock = std::chrono::steady_clock;
    static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

    void log(const std::string& s) { reporter_.log(s); }

    void hand_out() {
        for (const gen::Assignment& a : schedule_.assign()) {
            const std::string& name = schedule_.pairs()[a.pair].name;
            since_[static_cast<std::size_t>(a.worker)] = Clock::now();
            if (a.mode == gen::SolveMode::by_levels)
                log(name + ": no rank holds it whole; to rank " + std::to_string(a.worker) + ", solved by levels");
            if (a.worker == 0)
                local_.start(name);
            else
                send(a.worker, kAssign, name);
        }
        note_in_flight();
    }

    void finished(int rank, const gen::PairOutcome& outcome) {
        const std::size_t pair = *schedule_.in_flight()[static_cast<std::size_t>(rank)];
        schedule_.finished(rank);
        summary_.add_pair(outcome);
        progress_.positions_done += schedule_.pairs()[pair].positions;
        progress_.positions_left -= schedule_.pairs()[pair].positions;
        progress_.seconds = seconds_since(start_);
        log("rank " + std::to_string(rank) + ": " + outcome.line);
        hand_out();
        const std::size_t pairs = schedule_.pairs().size();
        log(progress_.line(pairs - schedule_.remaining(), pairs, summary_.slices_skipped, summary_.slices_generated) +
            "; in flight: " + in_flight_text());
    }

    Error failed(int rank, const Error& e) {
        const auto& f = schedule_.in_flight()[static_cast<std::size_t>(rank)];
        const std::string pair = f ? schedule_.pairs()[*f].name : std::string("?");
        return Error{"rank " + std::to_string(rank) + ", pair " + pair + ": " + e.message +
                         "; stopping the job (pairs in flight: " + in_flight_text() + ")",
                     e.kind};
    }

    std::string in_flight_text() const {
        std::string out;
        for (int w = 0; w < schedule_.workers(); ++w) {
            const auto& f = schedule_.in_flight()[static_cast<std::size_t>(w)];
            out += (w ? ", " : "") + std::string("rank ") + std::to_string(w) + " ";
            out += f ? schedule_.pairs()[*f].name + " (" +
                           gen::clock_time(seconds_since(since_[static_cast<std::size_t>(w)])) + ")"
                     : "idle";
        }
        return out;
    }

    void note_in_flight() {
        const std::string text = in_flight_text();
        reporter_.in_flight(text);
        std::ofstream(o_.out_dir / kInFlightFile, std::ios::trunc) << text << '\n';
    }

    const gen::GenerateOptions& o_;
    Reporter& reporter_;
    gen::PairSchedule schedule_;
    LocalWorker local_;
    std::vector<Clock::time_point> since_;  // per rank: when its pair in flight started
    Clock::time_point start_;
    gen::GenerateSummary summary_;
    gen::RunProgress progress_;
};

// A rank other than 0: solves what it is handed until told to stop.
void serve_pairs(gen::PairWorker& worker) {
    for (;;) {
        auto m = poll(0);
        if (!m) {
            std::this_thread::sleep_for(kPollInterval);
            continue;
        }
        if (m->tag == kStop) return;
        if (m->tag != kAssign) continue;
        auto r = worker.solve(m->text);
        if (r)
            send(0, kDone, encode_outcome(*r));
        else
            send(0, kFailed, encode_error(Error{r.error(), r.error_kind()}));
    }
}

// How many ranks share this rank's node.
int ranks_on_node() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int n = 1;
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return n;
}

std::uint64_t env_number(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::strtoull(v, nullptr, 10) : 0;
}

}  // namespace

bool launched_as_rank() {
    return env_number("OMPI_COMM_WORLD_SIZE") > 1 || env_number("PMI_SIZE") > 1;
}

DistributedResult generate_distributed(gen::GenerateOptions o, const DistributedEvents& events) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    DistributedResult result;
    MPI_Comm_rank(MPI_COMM_WORLD, &result.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &result.ranks);
    const int share = ranks_on_node();
    if (o.threads == 0) o.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / share);
    if (o.memory_mb == 0) o.memory_mb = std::max<std::uint64_t>(1, gen::physical_memory_mb() / share);
    const bool coordinator = result.rank == 0;
    const auto fail_everywhere = [&](Error e) {
        result.summary = std::move(e);
        MPI_Finalize();
        return result;
    };

    // Rank 0 takes the folder and lists the pairs; every rank learns whether that worked.
    std::optional<gen::FolderLock> lock;
    std::vector<gen::PairNeeds> pairs;
    std::optional<Error> prepared;  // rank 0's error
    if (coordinator) {
        gen::GenerateEvents folder_events;
        folder_events.log = events.log;
        if (auto l = gen::open_run_folder(o, folder_events); !l) {
            prepared = Error{l.error(), l.error_kind()};
        } else {
            lock.emplace(std::move(l.value()));
            std::ifstream last(o.out_dir / kInFlightFile);
            std::string previous;
            if (std::getline(last, previous) && events.log)
                events.log("the last distributed run in this folder stopped with: " + previous);
            if (auto p = gen::run_pairs(o); !p)
                prepared = Error{p.error(), p.error_kind()};
            else
                pairs = *p;
        }
    }
    if (auto e = shared_error(prepared)) return fail_everywhere(*e);

    // Every rank's worker, and its memory for the schedule. What rank 0's worker thread uses lives
    // on the heap: after an error elsewhere it is left to the process, which the front end aborts
    // while that thread may still be solving.
    struct RankState {
        explicit RankState(const DistributedEvents& e) : reporter(e) {}
        Reporter reporter;
        gen::GenerateEvents worker_events;
        std::unique_ptr<gen::PairWorker> worker;
    };
    auto state = std::make_unique<RankState>(events);
    state->worker_events.log = [&reporter = state->reporter, coordinator](const std::string& s) {
        if (coordinator)
            reporter.log("rank 0: " + s);
        else
            send(0, kNote, s);
    };
    auto worker = gen::make_pair_worker(o, state->worker_events);
    if (!worker) return fail_everywhere(Error{worker.error(), worker.error_kind()});
    state->worker = std::move(worker.value());
    std::uint64_t limit = state->worker->work_limit();
    std::vector<std::uint64_t> limits(coordinator ? static_cast<std::size_t>(result.ranks) : 0);
    MPI_Gather(&limit, 1, MPI_UINT64_T, limits.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);

    // Every pair must fit some rank before anything is allocated.
    std::optional<gen::PairSchedule> schedule;
    if (coordinator) {
        auto s = gen::PairSchedule::make(std::move(pairs), limits);
        if (s)
            schedule.emplace(std::move(s.value()));
        else
            prepared = Error{s.error(), s.error_kind()};
    }
    if (auto e = shared_error(prepared)) return fail_everywhere(*e);

    if (!coordinator) {
        serve_pairs(*state->worker);
        MPI_Finalize();
        return result;
    }
    auto coordinator_state = std::make_unique<Coordinator>(o, state->reporter, std::move(*schedule), *state->worker);
    auto summary = coordinator_state->run();
    if (!summary) {
        coordinator_state->abandon_local();
        (void)coordinator_state.release();
        (void)state.release();
        result.summary = Error{summary.error(), summary.error_kind()};
        result.stop_job = true;
        return result;
    }
    coordinator_state.reset();
    for (int r = 1; r < result.ranks; ++r) send(r, kStop, "");
    result.summary = *summary;
    MPI_Finalize();
    return result;
}

void abort_job(int exit_code) {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
}

}  // namespace dtb::mpi
