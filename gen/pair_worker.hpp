// A generation shared by several workers (the ranks of `mpirun dtb gen`): the run's pairs with what
// the schedule needs of them (gen/pair_schedule.hpp), the output folder taken by the one that
// schedules, and a worker that solves the pairs it is handed, reading their inputs from the folder.
// Every pair is solved by the same steps as in a single-process run (gen/pair_steps.hpp), so the
// tables are the same files whatever the number of workers.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dtb/gen/folder_lock.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/gen/pair_schedule.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// The pairs of the run o asks for, in generation order, with their needs and whether each is
// already complete in o.out_dir (a pair reads only pairs before it). The request is checked as
// generate() checks it; nothing is written.
Expected<std::vector<PairNeeds>> run_pairs(const GenerateOptions& o);

// The output folder made ready for a run: created, locked against other runs (the lock is held
// while the result lives), cleared of the temporary files that killed runs left.
Expected<FolderLock> open_run_folder(const GenerateOptions& o, const GenerateEvents& events);

// Solves pairs of one run, one at a time, in the folder of o (which the scheduling process holds
// locked). Finished slices are read from the folder when a pair needs them and kept while the
// next pairs read them.
class PairWorker {
  public:
    virtual ~PairWorker() = default;
    // Pair `name` (a slice name, standing for the slice and its mirror): solved and written.
    virtual Expected<PairOutcome> solve(const std::string& name) = 0;
    // The work memory this worker may use, in bytes (0: no bound): what the schedule fits pairs to.
    virtual std::uint64_t work_limit() const = 0;
};
Expected<std::unique_ptr<PairWorker>> make_pair_worker(const GenerateOptions& o, const GenerateEvents& events);

}  // namespace dtb::gen
