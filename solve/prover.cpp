#include "dtb/solve/prover.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/solve/dfpn.hpp"
#include "dtb/solve/proof_extract.hpp"

namespace dtb::solve {

std::string_view to_string(Answer a) {
    switch (a) {
        case Answer::win:
            return "win";
        case Answer::draw:
            return "draw";
        case Answer::loss:
            return "loss";
        case Answer::unresolved:
            break;
    }
    return "unresolved";
}

std::string_view to_string(AnswerSource s) {
    return s == AnswerSource::tables ? "tables" : s == AnswerSource::terminal ? "terminal" : "search";
}

std::string_view to_string(StopReason s) {
    switch (s) {
        case StopReason::nodes:
            return "nodes";
        case StopReason::time:
            return "time";
        case StopReason::depth:
            return "depth";
        case StopReason::cancelled:
            return "cancelled";
        case StopReason::none:
            break;
    }
    return "none";
}

class Prover::Impl {
  public:
    explicit Impl(const ProverOptions& o) : options(o) {}
    virtual ~Impl() = default;
    virtual SolveResult solve(const Position& p) = 0;
    virtual Expected<Proof> proof(std::uint64_t max_nodes) = 0;
    ProverOptions options;
};

namespace {

using Clock = std::chrono::steady_clock;
using detail::Child;
using detail::Search;
using detail::SearchStats;

// The state a question of the last solve ended in.
enum class Question : std::uint8_t { open, proven, disproven, given_up };

template <class R>
class ProverOf final : public Prover::Impl {
  public:
    ProverOf(const probe::Tablebase& tables, const ProverOptions& o)
        : Impl(o), tables_(tables), tt_(o.memory_mb << 20) {
        if (o.rules != CountingRules::none) judge_.emplace(tables, o.rules);
        oracle_.tables = &tables_;
        oracle_.judge = judge_ ? &*judge_ : nullptr;
        oracle_.table_pieces = tables_.max_pieces();
    }

    SolveResult solve(const Position& p) override {
        tt_.clear();
        stats_ = {};
        root_ = p;
        questions_ = {Question::open, Question::open};
        SolveResult r;
        Search<R> search(oracle_, tt_, options, stats_);
        root_counters_ = search.with_counters() ? judge_->applicable(p, options.counters) : adjudicate::Counters{};
        if (p.of(Color::white) == 0 || p.of(Color::black) == 0) {
            r.status.status = probe::Status::illegal;
            r.status.reason = "the game is over: a side has no piece";
            return r;
        }
        root_leaf_ = search.evaluate(p, root_counters_);
        if (search.failed()) {
            r.status = search.failure();
        } else if (root_leaf_.kind != LeafKind::open) {
            answer_leaf(r);
        } else {
            run(search, r);
            if (r.ok()) explain(search, r);
        }
        r.nodes = stats_.nodes;
        r.probes = stats_.probes;
        r.max_pieces = stats_.max_pieces;
        r.seconds = std::chrono::duration<double>(Clock::now() - stats_.start).count();
        return r;
    }

    Expected<Proof> proof(std::uint64_t max_nodes) override {
        Proof proof;
        proof.variant = R::kId;
        proof.fen = to_fen<R>(root_);
        proof.rules = options.rules;
        proof.counters = root_counters_;
        if (root_leaf_.kind != LeafKind::open) {  // the root is its own proof: a leaf
            ProofNode leaf;
            leaf.leaf = root_leaf_.kind;
            leaf.value = root_leaf_.value;
            leaf.rule = root_leaf_.rule;
            if (root_leaf_.value == Wdl::win) proof.parts.push_back({Claim::win, leaf});
            if (root_leaf_.value == Wdl::loss) proof.parts.push_back({Claim::loss, leaf});
            if (root_leaf_.value == Wdl::draw) {
                proof.parts.push_back({Claim::not_win, leaf});
                proof.parts.push_back({Claim::not_loss, leaf});
            }
            return proof;
        }
        const std::uint64_t budget =
            max_nodes != 0 ? max_nodes : std::max<std::uint64_t>(20 * stats_.nodes, 20'000'000);
        const Color side = root_.side_to_move;
        // Which claims the last solve proved, in the order a reader expects them.
        std::vector<Claim> claims;
        if (questions_[0] == Question::proven) claims.push_back(Claim::win);
        if (questions_[1] == Question::proven) claims.push_back(Claim::loss);
        if (questions_[0] == Question::disproven && questions_[1] != Question::proven) claims.push_back(Claim::not_win);
        if (questions_[1] == Question::disproven && questions_[0] != Question::proven)
            claims.push_back(Claim::not_loss);
        for (const Claim c : claims) {
            SearchStats stats;
            Search<R> search(oracle_, tt_, options, stats);
            search.set_root_side(side);
            search.set_attacker(claim_attacker_is_root_side(c) ? side : ~side);
            search.set_budget(budget, Clock::time_point::max());
            auto tree = extract_proof<R>(search, root_, root_counters_, claim_is_win(c), kMaxProofNodes);
            if (!tree) return Error{tree.error()};
            proof.parts.push_back({c, std::move(tree.value())});
        }
        return proof;
    }

  private:
    // The root is a leaf: the tables (or the rules) answer at once.
    void answer_leaf(SolveResult& r) {
        r.answer = root_leaf_.value == Wdl::win    ? Answer::win
                   : root_leaf_.value == Wdl::loss ? Answer::loss
                                                   : Answer::draw;
        r.lower = r.upper = root_leaf_.value;
        r.source = root_leaf_.kind == LeafKind::table ? AnswerSource::tables : AnswerSource::terminal;
        if (root_leaf_.kind != LeafKind::table) return;
        append_table_line(root_, root_counters_, r.pv);
        if (!r.pv.empty()) r.best_move = r.pv.front();
    }

    // The tables' best line from a position inside them: the principal variation (DTW) without
    // counting rules, the adjudicator's first best move under them.
    void append_table_line(const Position& p, const adjudicate::Counters& c, std::vector<SolveMove>& pv) const {
        if (judge_) {
            const adjudicate::Adjudication a = judge_->adjudicate(p, c);
            if (a.ok() && !a.moves.empty()) pv.push_back({a.moves.front().move, a.moves.front().text});
            return;
        }
        if ((tables_.metrics() & probe::kDtw) == 0) return;
        std::vector<probe::MoveValue> line;
        if (tables_.principal_variation(p, line).ok())
            for (const probe::MoveValue& m : line) pv.push_back({m.move, m.text});
    }

    // The two questions in turns, each with a node budget that doubles every round, until one
    // is proven, both are disproven, or the limits are reached.
    void run(Search<R>& search, SolveResult& r) {
        const Clock::time_point deadline = options.max_seconds > 0
                                               ? stats_.start + std::chrono::duration_cast<Clock::duration>(
                                                                    std::chrono::duration<double>(options.max_seconds))
                                               : Clock::time_point::max();
        const Color side = root_.side_to_move;
        search.set_root_side(side);
        std::uint64_t round = 4096;
        StopReason stop = StopReason::none;
        while (stop == StopReason::none) {
            bool searched = false;
            for (int q = 0; q < 2 && stop == StopReason::none; ++q) {
                if (questions_[q] != Question::open) continue;
                if (questions_[1 - q] == Question::proven) continue;
                searched = true;
                std::uint64_t limit = stats_.nodes + round;
                if (options.max_nodes != 0) limit = std::min(limit, options.max_nodes);
                search.set_attacker(q == 0 ? side : ~side);
                search.set_budget(limit, deadline);
                const NodeValue v = search.mid(root_, root_counters_, kInfinity, kInfinity, 0, true);
                if (search.failed()) {
                    r.status = search.failure();
                    return;
                }
                if (v.proven()) questions_[q] = Question::proven;
                if (v.disproven()) questions_[q] = v.repetition == kClean ? Question::disproven : Question::given_up;
                if (search.stopped() == StopReason::time || search.stopped() == StopReason::cancelled)
                    stop = search.stopped();
                if (options.max_nodes != 0 && stats_.nodes >= options.max_nodes) stop = StopReason::nodes;
            }
            if (!searched) break;
            round *= 2;
        }
        const bool any_open =
            std::any_of(questions_.begin(), questions_.end(), [](Question q) { return q == Question::open; });
        const bool given_up =
            std::any_of(questions_.begin(), questions_.end(), [](Question q) { return q == Question::given_up; });
        if (questions_[0] == Question::proven) {
            r.answer = Answer::win;
            r.lower = r.upper = Wdl::win;
        } else if (questions_[1] == Question::proven) {
            r.answer = Answer::loss;
            r.lower = r.upper = Wdl::loss;
        } else {
            if (questions_[0] == Question::disproven) r.upper = Wdl::draw;
            if (questions_[1] == Question::disproven) r.lower = Wdl::draw;
            r.answer = r.lower == r.upper ? Answer::draw : Answer::unresolved;
        }
        if (r.answer == Answer::unresolved) r.stop = any_open ? stop : given_up ? StopReason::depth : stop;
    }

    // Best move and principal variation from the proof: the winner's proven move (the cheapest
    // proof), the loser's most resisting one, a drawing side's move that does not lose; into the
    // tables, or as far as the proof fixes the line.
    void explain(Search<R>& search, SolveResult& r) {
        const Color side = root_.side_to_move;
        bool prove_win = true;
        if (r.answer == Answer::win)
            search.set_attacker(side);
        else if (r.answer == Answer::loss)
            search.set_attacker(~side);
        else if (questions_[1] == Question::disproven) {
            search.set_attacker(~side);
            prove_win = false;
        } else
            return;
        search.set_budget(stats_.nodes + std::max<std::uint64_t>(stats_.nodes, 100'000), Clock::time_point::max());
        Position p = root_;
        adjudicate::Counters c = root_counters_;
        bool after_irreversible = true;
        for (int ply = 0; ply < kMaxPvPlies; ++ply) {
            std::vector<Child> children;
            const NodeValue v = search.mid(p, c, kInfinity, kInfinity, ply, after_irreversible, &children);
            if (search.failed() || !(prove_win ? v.proven() : v.disproven()) || children.empty()) break;
            const Child* next = pick_line_move(children, p.side_to_move == search.attacker(), prove_win);
            if (next == nullptr) break;
            MoveList legal;
            for (const Child& ch : children) legal.push_back(ch.move);
            r.pv.push_back({next->move, move_to_string<R>(next->move, legal)});
            search.push_path(p, after_irreversible);
            after_irreversible = next->move.is_capture() || (p.kings & bit(next->move.from)) == 0;
            p = next->pos;
            c = next->counters;
            if (next->leaf.kind != LeafKind::open) {
                if (next->leaf.kind == LeafKind::table) append_table_line(p, c, r.pv);
                break;
            }
        }
        while (search.path_length() > 0) search.pop_path();
        if (!r.pv.empty()) r.best_move = r.pv.front();
        search.set_budget(0, Clock::time_point::max());
    }

    // The move of the line: at the claim side's choice, a child that keeps the claim with the
    // shortest proof found (the quickest win); elsewhere the reply with the longest (the
    // longest resistance).
    static const Child* pick_line_move(const std::vector<Child>& children, bool attacker_to_move, bool prove_win) {
        const bool choice = attacker_to_move == prove_win;
        const Child* best = nullptr;
        for (const Child& ch : children) {
            const bool keeps = prove_win ? ch.value.proven() : ch.value.disproven();
            if (choice && !keeps) continue;
            if (best == nullptr ||
                (choice ? ch.value.distance < best->value.distance : ch.value.distance > best->value.distance))
                best = &ch;
        }
        return best;
    }

    static constexpr int kMaxPvPlies = 200;
    const probe::Tablebase& tables_;
    std::optional<adjudicate::Adjudicator> judge_;
    Oracle oracle_;
    TranspositionTable tt_;
    SearchStats stats_;
    Position root_;
    adjudicate::Counters root_counters_;
    Leaf root_leaf_;
    std::array<Question, 2> questions_{Question::open, Question::open};
};

}  // namespace

Expected<Prover> Prover::create(const probe::Tablebase& tables, const ProverOptions& options) {
    if (options.rules != CountingRules::none && tables.variant() != VariantId::international)
        return Error{"counting rules (--rules " + std::string(to_string(options.rules)) +
                     ") are international draughts' only"};
    if (options.memory_mb == 0 || options.memory_mb > (std::size_t{1} << 24))
        return Error{"the memory budget must be 1 MB to 16 TB"};
    if (options.max_depth < 1 || options.max_depth > 100'000) return Error{"the depth limit must be 1 to 100000 plies"};
    if (options.epsilon < 0 || options.epsilon > 100) return Error{"epsilon must be 0 to 100"};
    if (options.max_seconds < 0) return Error{"the time limit must not be negative"};
    const adjudicate::Counters& k = options.counters;
    auto in_range = [](int v) { return v >= 0 && v <= adjudicate::kMaxCounterPlies; };
    if (!in_range(k.reversible) || (k.endgame && !in_range(*k.endgame)) || (k.small && !in_range(*k.small)))
        return Error{"a counter is out of range (0 to " + std::to_string(adjudicate::kMaxCounterPlies) + " plies)"};
    std::unique_ptr<Impl> impl = with_variant(tables.variant(), [&](auto v) -> std::unique_ptr<Impl> {
        return std::make_unique<ProverOf<decltype(v)>>(tables, options);
    });
    return Prover(std::move(impl));
}

Prover::Prover(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Prover::Prover(Prover&&) noexcept = default;
Prover& Prover::operator=(Prover&&) noexcept = default;
Prover::~Prover() = default;

SolveResult Prover::solve(const Position& p) {
    return impl_->solve(p);
}
Expected<Proof> Prover::proof(std::uint64_t max_nodes) {
    return impl_->proof(max_nodes);
}
const ProverOptions& Prover::options() const {
    return impl_->options;
}

}  // namespace dtb::solve
