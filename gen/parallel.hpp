// The one place where OpenMP scheduling lives. Every pass of the generator is a function over an
// index range [begin, end); parallel_for splits it into chunks that the threads take dynamically
// and reports progress from the master thread. The number of threads is a parameter of each
// loop (--threads, handed down by the driver), never set for the whole process.
#pragma once
#include <omp.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace dtb::gen {

// Called with (done, total) from one thread, at most a few times per second.
using ChunkProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// The threads of a loop asked for `threads` threads: 0 is OpenMP's default (all cores).
inline int team_size(int threads) {
    return threads > 0 ? threads : omp_get_max_threads();
}

// The entries of a chunk of parallel_for_chunks: a multiple of 64, so that a chunk owns whole
// 64-bit words of a bit per entry (gen/entry_subset.hpp).
inline constexpr std::uint64_t kParallelChunk = 1 << 14;

// Calls chunk(begin, end) for consecutive chunks covering [0, total), on team_size(threads) threads.
template <class Chunk>
void parallel_for_chunks(std::uint64_t total, Chunk&& chunk, const ChunkProgress& progress = {}, int threads = 0) {
    constexpr std::uint64_t kChunk = kParallelChunk;
    const std::int64_t chunks = static_cast<std::int64_t>((total + kChunk - 1) / kChunk);
    if (chunks <= 1) {  // one chunk runs on one thread anyway: spare the team its wake-up and barrier
        if (total) chunk(std::uint64_t{0}, total);
        return;
    }
    std::atomic<std::uint64_t> done{0};
    auto last = std::chrono::steady_clock::now();
    const int team = team_size(threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (std::int64_t c = 0; c < chunks; ++c) {
        const std::uint64_t begin = static_cast<std::uint64_t>(c) * kChunk;
        const std::uint64_t end = begin + kChunk < total ? begin + kChunk : total;
        chunk(begin, end);
        const std::uint64_t now_done = done.fetch_add(end - begin, std::memory_order_relaxed) + (end - begin);
        if (progress && omp_get_thread_num() == 0) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last > std::chrono::milliseconds(500)) {
                last = now;
                progress(now_done, total);
            }
        }
    }
}

// The threads a pass runs on, for work that spawns its own (format::TableReader::read_all).
inline unsigned pass_threads(int threads = 0) {
    return static_cast<unsigned>(team_size(threads));
}

template <class Body>
void parallel_for(std::uint64_t total, Body&& body, const ChunkProgress& progress = {}, int threads = 0) {
    parallel_for_chunks(
        total,
        [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t i = begin; i < end; ++i) body(i);
        },
        progress, threads);
}

// Calls task(t) for every t in [0, count), one task at a time per thread (for few, large tasks,
// such as compressing chunks: parallel_for would hand them all to one thread).
template <class Task>
void parallel_for_tasks(std::uint64_t count, Task&& task, int threads = 0) {
    if (count <= 1) {
        if (count) task(std::uint64_t{0});
        return;
    }
    const int team = team_size(threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (std::int64_t t = 0; t < static_cast<std::int64_t>(count); ++t) task(static_cast<std::uint64_t>(t));
}

// Positions and moves counted per side by many threads at once: each thread adds to its own
// line, and the sums are read between parallel loops of at most `threads` threads (team_size).
class SideTally {
  public:
    SideTally() : SideTally(0) {}
    explicit SideTally(int threads) : lines_(static_cast<std::size_t>(team_size(threads))) {}
    void add(int side, std::int64_t positions, std::int64_t moves) {
        Line& line = lines_[static_cast<std::size_t>(omp_get_thread_num())];
        line.positions[side] += positions;
        line.moves[side] += moves;
    }
    std::int64_t positions(int side) const {
        std::int64_t n = 0;
        for (const Line& line : lines_) n += line.positions[side];
        return n;
    }
    std::int64_t moves(int side) const {
        std::int64_t n = 0;
        for (const Line& line : lines_) n += line.moves[side];
        return n;
    }

  private:
    struct alignas(64) Line {
        std::array<std::int64_t, 2> positions{}, moves{};
    };
    std::vector<Line> lines_;
};

}  // namespace dtb::gen
