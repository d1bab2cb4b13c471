#include "dtb/gen/pair_worker.hpp"

#include <algorithm>
#include <set>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_steps.hpp"
#include "dtb/gen/run_request.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::gen {

namespace {

template <class R>
Expected<std::vector<PairNeeds>> pairs_of_run(const GenerateOptions& o) {
    auto wanted = check_request<R>(o);
    if (!wanted) return Error{wanted.error(), wanted.error_kind()};
    const std::vector<Material> order = pairs_in_order<R>(o.max_pieces, *wanted);
    // An input outside the run (--only) must be on disk already, which the worker reading it checks.
    const std::vector<std::vector<std::size_t>> inputs = inputs_in_order(order);
    std::vector<PairNeeds> out;
    for (const Material& m : order) {
        PairNeeds needs;
        needs.name = m.name();
        needs.positions = positions_of_pair<R>(m);
        const ScheduledMemory memory =
            scheduled_memory<R>(m, entries_of_pair<R>(m), SliceIndex<R>(m).kings_per_config(),
                                input_bytes<R>(m, o.max_pieces), kept_bytes_of<R>(m, o.max_pieces), o.spill, o.blocks,
                                [&] { return SliceSolver<R>::largest_level(m, o.threads); });
        needs.whole_bytes = memory.whole_bytes;
        needs.level_bytes = memory.level_bytes;
        needs.by_blocks = memory.by_blocks;
        needs.inputs = inputs[out.size()];
        needs.complete = complete_on_disk<R>(o.out_dir, m) && complete_on_disk<R>(o.out_dir, m.mirrored());
        out.push_back(std::move(needs));
    }
    return out;
}

template <class R>
class Worker final : public PairWorker {
  public:
    Worker(const GenerateOptions& o, const GenerateEvents& e)
        : o_(o), e_(e), steps_(o_, e_, [](const Material&) { return false; }) {}

    Expected<PairOutcome> solve(const std::string& name) override {
        const auto m = Material::parse(name);
        if (!m || !material_fits<R>(*m) || m->pieces() > o_.max_pieces)
            return Error{"'" + name + "' is not a pair of this run", ErrorKind::bad_input};
        // Of the finished slices held, keep those this pair reads; the others go.
        steps_.keep_only(inputs_of_pair(*m));
        return steps_.solve_and_write(*m);
    }
    std::uint64_t work_limit() const override { return steps_.budget().work_limit(); }

  private:
    GenerateOptions o_;
    GenerateEvents e_;
    PairSteps<R> steps_;
};

}  // namespace

Expected<std::vector<PairNeeds>> run_pairs(const GenerateOptions& o) {
    return with_variant(o.variant, [&](auto v) { return pairs_of_run<decltype(v)>(o); });
}

Expected<std::unique_ptr<PairWorker>> make_pair_worker(const GenerateOptions& o, const GenerateEvents& events) {
    return with_variant(o.variant, [&](auto v) -> Expected<std::unique_ptr<PairWorker>> {
        using R = decltype(v);
        if (auto wanted = check_request<R>(o); !wanted) return Error{wanted.error(), wanted.error_kind()};
        return std::unique_ptr<PairWorker>(std::make_unique<Worker<R>>(o, events));
    });
}

}  // namespace dtb::gen
