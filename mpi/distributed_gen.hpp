// `mpirun -np N dtb gen ...`: one generation shared by the ranks of an MPI job. Rank 0 owns the
// schedule (gen/pair_schedule.hpp) and also solves pairs on a thread of its own; every rank solves
// the pairs it is handed with its own OpenMP threads, reading and writing tables in one folder that
// all ranks share. docs/SCALING.md describes the protocol, the schedule and the faults.
#pragma once
#include <functional>
#include <string>

#include "dtb/gen/generate.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::mpi {

// Whether this process was started by an MPI launcher (mpirun, srun) as one rank of several.
bool launched_as_rank();

struct DistributedEvents {
    // Rank 0 only: slice lines (each with the rank that solved it), the run line after each pair
    // with the pairs in flight per rank, and notices.
    std::function<void(const std::string&)> log;
    // Rank 0 only: what is in flight now, one line ("rank 0 KKMvKK, rank 1 idle, ..."), each time
    // it changes: for a front end that reports it when the job is stopped from outside.
    std::function<void(const std::string&)> in_flight;
};

struct DistributedResult {
    int rank = 0;
    int ranks = 1;
    // On rank 0 the run's summary or its error (naming the pair and the rank that failed); on the
    // other ranks their own outcome (an error only if their own work failed).
    Expected<gen::GenerateSummary> summary = gen::GenerateSummary{};
    // An error found while other ranks were solving pairs: MPI is still initialised and the
    // front end, having reported the error, stops the job with abort_job. Otherwise MPI is
    // finalised on every rank before the result is returned.
    bool stop_job = false;
};

// Runs the generation o asks for over the job's ranks. Each rank's o.threads and o.memory_mb,
// when 0, are its share of its node (cores and physical memory divided by the ranks on the node).
// Initialises and finalises MPI.
DistributedResult generate_distributed(gen::GenerateOptions o, const DistributedEvents& events);

// Stops every rank of the job at once (MPI_Abort) with the given exit code: after an error on rank
// 0, so that ranks solving other pairs do not run on for hours. Files being written stay under
// their temporary names, which the next run removes.
[[noreturn]] void abort_job(int exit_code);

}  // namespace dtb::mpi
