// Meet in the middle on sets: forward sets from the start, then the values backed up from the
// deepest ply (include/zermelo/dfa/solver.hpp, solve_by_reach). Its own file because a solve can
// outlast a working session: it resumes forward search and back-up alike from its spill files.
#include <chrono>
#include <future>
#include <limits>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "reach_spill.hpp"
#include "zermelo/dfa/solver.hpp"

namespace zermelo::dfa {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The statistics of two sets, walked at once when the manager has two threads (the walks only
// read the table, and nothing builds states meanwhile).
std::pair<SetStats, SetStats> stats_of_both(const Set& a, const Set& b, bool digests) {
  if (a.manager()->threads() == 1) return {stats_of(a, digests), stats_of(b, digests)};
  auto second = std::async(std::launch::async, [&b, digests] { return stats_of(b, digests); });
  SetStats first = stats_of(a, digests);
  return {first, second.get()};
}

using Progress = std::function<void(const ReachStep&, bool)>;

class ReachSolve {
 public:
  ReachSolve(const SetGame& g, const Set& known_won, const Set& known_lost, unsigned max_plies,
             const Progress& progress, bool keep_sets, const std::string& spill_dir)
      : g_(g),
        m_(*g.manager),
        known_won_(known_won),
        known_lost_(known_lost),
        known_(known_won | known_lost),
        max_plies_(max_plies),
        progress_(progress),
        keep_sets_(keep_sets),
        spill_(m_, spill_dir) {}

  ReachResult run() {
    Step0CheckTheKnownSets();
    Step1TakeWhatAnEarlierBackUpLeft();
    const Set last_open = Step2ReadBackTheSpilledForwardPlies();
    if (backed_)
      Step3aTakeTheBackedUpPlies();
    else
      Step3bSearchForward(last_open);
    r_.forward_seconds = seconds_since(t0_);
    Step4BackUp();
    r_.backward_seconds = seconds_since(t0_) - r_.forward_seconds;
    r_.start_won = !r_.steps.empty() && r_.steps[0].won.positions > 0;  // R(0) = {start}
    spill_.clear();
    return std::move(r_);
  }

 private:
  void Step0CheckTheKnownSets() const {
    if (!((g_.won0 | g_.lost0) - known_).is_empty())
      throw std::invalid_argument(
          "solve_by_reach: the known sets must contain every terminal position");
  }

  // A solve that keeps every ply's sets needs the won and lost sets of the plies backed up,
  // which no file holds: it backs them up again.
  void Step1TakeWhatAnEarlierBackUpLeft() {
    if (!spill_.on()) return;
    backed_ = spill_.load_backed_up();
    if (backed_ && keep_sets_) {
      spill_.clear_backed_up();
      backed_.reset();
    }
  }

  // The plies an earlier run of this solve spilled, below those it backed up: read back as they
  // are. Returns the last one's open set.
  Set Step2ReadBackTheSpilledForwardPlies() {
    const std::size_t below = backed_ ? backed_->lowest() : std::numeric_limits<std::size_t>::max();
    Set last_open = m_.empty();
    for (std::size_t i = 0; spill_.on() && i < below && spill_.has_forward(i); ++i) {
      auto [reach, open] = spill_.load_forward(i);
      if ((i == 0 && reach != m_.singleton(g_.start)) || open != reach - known_)
        throw std::runtime_error("solve_by_reach: the set files of ply " + std::to_string(i) +
                                 " in " + spill_.dir() +
                                 " are not this solve's (another game, "
                                 "board or known sets); remove them or spill elsewhere");
      ReachStep st;
      st.ply = static_cast<unsigned>(i);
      st.resumed = true;
      std::tie(st.reach, st.undecided) = stats_of_both(reach, open, g_.digests);
      st.seconds = seconds_since(t0_);
      if (!backed_) all_reached_ = all_reached_ | reach;
      add_ply(st, m_.empty(), m_.empty());
      r_.resumed_plies = i + 1;
      if (progress_) progress_(st, false);
      last_open = open;
    }
    if (backed_ && r_.resumed_plies != backed_->lowest())
      throw std::runtime_error("solve_by_reach: " + spill_.dir() + " has the back-up of plies " +
                               std::to_string(backed_->lowest()) + " and up but not every " +
                               "forward ply below them");
    return last_open;
  }

  // Every ply from the lowest backed up on: statistics only (the back-up has dropped the sets).
  void Step3aTakeTheBackedUpPlies() {
    for (auto it = backed_->steps.rbegin(); it != backed_->steps.rend(); ++it)
      add_ply(*it, m_.empty(), m_.empty());
    r_.resumed_backup_plies = backed_->steps.size();
    r_.distinct = backed_->distinct;
    r_.distinct_positions = r_.distinct.positions;
  }

  void Step3bSearchForward(const Set& last_open) {
    Set current = r_.resumed_plies > 0 ? forward(g_, last_open) : m_.singleton(g_.start);
    while (!current.is_empty()) {
      if (r_.reach.size() > max_plies_)
        throw std::runtime_error("solve_by_reach: still reaching new positions after " +
                                 std::to_string(max_plies_) + " plies (is the game acyclic?)");
      Set open = current - known_;
      ReachStep st;
      st.ply = static_cast<unsigned>(r_.reach.size());
      std::tie(st.reach, st.undecided) = stats_of_both(current, open, g_.digests);
      st.seconds = seconds_since(t0_);
      all_reached_ = all_reached_ | current;
      add_ply(st, current, open);
      if (progress_) progress_(st, false);
      current = forward(g_, open);
      if (spill_.on()) spill_.save_forward(st.ply, r_.reach.back(), undecided_.back());
    }
    r_.distinct = stats_of(all_reached_, g_.digests);
    r_.distinct_positions = r_.distinct.positions;
    all_reached_ = m_.empty();  // only its statistics are needed
  }

  // Lost(i+1) = (R(i+1) ∩ known_lost) ∪ (Open(i+1) \ Won(i+1)). Every move of an open position of
  // R(i) lands in R(i+1), so its moves into the first part are exactly its moves into known_lost:
  // reverse(known_lost) is computed once (one retrograde-sized step on compact sets) and only the
  // second, much smaller part is reversed ply by ply.
  void Step4BackUp() {
    const std::size_t n = r_.reach.size();
    r_.won.assign(n, m_.empty());
    r_.lost.assign(n, m_.empty());
    const std::size_t from = backed_ ? backed_->lowest() : n;
    if (backed_) report_backed_up_plies();
    if (from == 0) return restore_ply_zero();
    const Set into_known_lost = reverse(g_, known_lost_);
    Set open_lost_below = backed_ ? spill_.load_passed(from) : m_.empty();  // Open(i+1) \ Won(i+1)
    for (std::size_t i = from; i-- > 0;) {
      open_lost_below = back_up_ply(i, into_known_lost, open_lost_below);
      if (!keep_sets_ && i + 1 < n) {
        r_.reach[i + 1] = r_.won[i + 1] = r_.lost[i + 1] = undecided_[i + 1] = m_.empty();
      }
    }
  }

  // Every successor of an undecided position of R(i) lies in R(i+1) = Won(i+1) ∪ Lost(i+1): it is
  // won iff some move reaches Lost(i+1), and lost otherwise. Returns Open(i) \ Won(i).
  Set back_up_ply(std::size_t i, const Set& into_known_lost, const Set& open_lost_below) {
    if (spill_.on()) std::tie(r_.reach[i], undecided_[i]) = spill_.load_forward(i);
    Set won_open = undecided_[i] & into_known_lost;
    if (!open_lost_below.is_empty())
      won_open = won_open | reverse_within(g_, open_lost_below, undecided_[i] - won_open);
    r_.won[i] = (r_.reach[i] & known_won_) | won_open;
    r_.lost[i] = r_.reach[i] - r_.won[i];
    if (!(r_.lost[i] & known_won_).is_empty())
      throw std::logic_error("solve_by_reach: inconsistent known sets");
    ReachStep& st = r_.steps[i];
    std::tie(st.won, st.lost) = stats_of_both(r_.won[i], r_.lost[i], g_.digests);
    Set passed = undecided_[i] - won_open;
    if (g_.simplify_backup && i > 0) {
      // Ply i-1 asks only whether its undecided positions outside reverse(known_lost) have a move
      // into this set, and all their moves land in R(i) \ known_lost: outside that the set is
      // free, and the restrict often needs fewer states (a third fewer on half the plies of 5x5).
      Set simpler = passed.restrict_to(r_.reach[i] - known_lost_);
      if (simpler.states() < passed.states()) passed = simpler;
    }
    st.passed_states = passed.states();
    st.seconds = seconds_since(t0_);
    if (spill_.on()) save_backed_up(st, passed);
    if (progress_) progress_(st, true);
    return passed;
  }

  void save_backed_up(const ReachStep& st, const Set& passed) {
    if (!backed_) {
      backed_.emplace();
      backed_->plies = r_.reach.size();
      backed_->distinct = r_.distinct;
    }
    backed_->steps.push_back(st);
    spill_.save_backed_up(*backed_, passed);
    if (keep_sets_ || st.ply == 0) return;               // ply 0's sets are the result's
    r_.reach[st.ply] = undecided_[st.ply] = m_.empty();  // on disk no more
  }

  void report_backed_up_plies() const {
    if (!progress_) return;
    for (const ReachStep& st : backed_->steps) progress_(st, true);
  }

  // The earlier run had backed up every ply: R(0) = {start}, won or lost by its statistics.
  void restore_ply_zero() {
    r_.reach[0] = m_.singleton(g_.start);
    (r_.steps[0].won.positions > 0 ? r_.won[0] : r_.lost[0]) = r_.reach[0];
  }

  void add_ply(const ReachStep& st, const Set& reach, const Set& open) {
    r_.steps.push_back(st);
    r_.reach.push_back(reach);
    undecided_.push_back(open);
  }

  const SetGame& g_;
  Manager& m_;
  const Set known_won_, known_lost_, known_;
  const unsigned max_plies_;
  const Progress& progress_;
  const bool keep_sets_;
  const detail::ReachSpill spill_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::optional<detail::BackedUp> backed_;
  ReachResult r_;
  std::vector<Set> undecided_;
  Set all_reached_ = m_.empty();
};

}  // namespace

ReachResult solve_by_reach(const SetGame& g, const Set& known_won, const Set& known_lost,
                           unsigned max_plies, const Progress& progress, bool keep_sets,
                           const std::string& spill_dir) {
  return ReachSolve(g, known_won, known_lost, max_plies, progress, keep_sets, spill_dir).run();
}

}  // namespace zermelo::dfa
