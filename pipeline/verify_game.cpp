// See include/zermelo/engine/verify_game.hpp.
#include "zermelo/engine/verify_game.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <unordered_set>

namespace zermelo {
namespace {

std::size_t count_key(const std::vector<StateKey>& v, StateKey k) {
  return static_cast<std::size_t>(std::count(v.begin(), v.end(), k));
}
std::size_t count_child(const std::vector<Child>& v, StateKey k) {
  return static_cast<std::size_t>(std::count_if(
      v.begin(), v.end(), [&](const Child& c) { return !c.is_terminal() && c.key == k; }));
}
bool same_move(const Child& a, const Child& b) {
  return a.key == b.key && a.terminal == b.terminal;
}

// One walk of the verifier: the checks of one state each, and what they remember across states.
class Verifier {
 public:
  Verifier(const Game& game, GameCheck& report) : game_(game), r_(report) {
    for (const Tier& t : game.tiers()) {
      reachable_tiers_[t.name].insert(t.name);
      reachable_tiers_[t.name].insert(t.depends_on.begin(), t.depends_on.end());
    }
  }

  // Step 0: walk breadth-first from the start; step 1: the checks of each state; step 2: the
  // checks over all the states walked.
  void run(std::size_t max_states) {
    std::deque<StateKey> queue{game_.start()};
    std::unordered_set<StateKey> seen{game_.start()};
    while (!queue.empty() && r_.states < max_states && !full()) {
      const StateKey s = queue.front();
      queue.pop_front();
      ++r_.states;
      check_state(s);
      for (const Child& c : kids_)
        if (!c.is_terminal() && seen.insert(c.key).second) queue.push_back(c.key);
    }
    check_group_order();
  }

 private:
  const Game& game_;
  GameCheck& r_;
  std::map<std::string, std::set<std::string>> reachable_tiers_;  // a tier, and those it reads
  std::map<std::string, std::vector<std::pair<StateKey, std::uint64_t>>> group_of_;  // by tier
  std::map<std::string, std::map<std::uint64_t, StateKey>> exit_owner_;  // tier: slot -> child
  std::vector<Child> kids_, outcomes_, parent_kids_;
  std::vector<StateKey> preds_;

  bool full() const { return r_.problems.size() >= kMaxGameProblems; }
  void problem(const std::string& what, StateKey a, StateKey b) {
    if (!full()) r_.problems.push_back(what + "\n" + game_.render(a) + "and\n" + game_.render(b));
  }

  void check_state(StateKey s) {
    kids_.clear();
    // The engine's messages pack a key into 63 bits (retrograde_records.hpp).
    if (s >> 63) problem("a state key of 2^63 or more (the engine needs keys below 2^63)", s, s);
    const std::string tier = game_.tier_of(s);
    if (!reachable_tiers_.count(tier))
      return problem("tier_of names " + tier + ", not in tiers()", s, s);
    remember_group_slot(s, tier);
    if (game_.terminal_value(s).is_known()) return;  // no moves are played from it
    game_.successors(s, kids_);
    check_outcomes(s);
    check_skipping(s);
    for (const Child& c : kids_)
      if (!c.is_terminal()) check_child(s, tier, c);
    check_unmoves(s);
  }

  // successor_outcomes lists successors' moves, a same-tier child possibly unkeyed.
  void check_outcomes(StateKey s) {
    game_.successor_outcomes(s, outcomes_);
    if (outcomes_.size() != kids_.size())
      problem("successor_outcomes lists " + std::to_string(outcomes_.size()) +
                  " moves, successors " + std::to_string(kids_.size()),
              s, s);
    for (std::size_t i = 0; i < std::min(kids_.size(), outcomes_.size()); ++i) {
      const Child &c = kids_[i], &o = outcomes_[i];
      const bool same = o.is_unkeyed_in_tier() ? !c.is_terminal() && o.rule_known &&
                                                     game_.tier_of(c.key) == game_.tier_of(s) &&
                                                     o.rule == game_.terminal_value(c.key)
                                               : same_move(o, c);
      if (!same)
        problem("successor_outcomes and successors differ at move " + std::to_string(i), s,
                c.is_terminal() ? s : c.key);
    }
  }

  // successors_skipping skips exactly the moves asked for, and nothing when asked for nothing.
  void check_skipping(StateKey s) {
    if (!game_.groups_share_moves()) return;
    game_.successors_skipping(s, 0, outcomes_);
    const bool all_kept = outcomes_.size() == kids_.size() &&
                          std::equal(kids_.begin(), kids_.end(), outcomes_.begin(), same_move);
    if (!all_kept) problem("successors_skipping(nothing) and successors differ", s, s);
    game_.successors_skipping(s, ~std::uint64_t{0}, outcomes_);
    bool all_skipped = outcomes_.size() == kids_.size();
    for (std::size_t i = 0; all_skipped && i < kids_.size(); ++i)
      all_skipped =
          kids_[i].is_terminal() ? same_move(kids_[i], outcomes_[i]) : outcomes_[i].is_skipped();
    if (!all_skipped) problem("successors_skipping(everything) keyed a move or changed one", s, s);
  }

  // A child: its rule value, its tier, its exit slot, and un-moves back to s.
  void check_child(StateKey s, const std::string& tier, const Child& c) {
    if (c.rule_known && c.rule != game_.terminal_value(c.key))
      problem("a child's rule value differs from terminal_value", s, c.key);
    const std::string child_tier = game_.tier_of(c.key);
    if (!reachable_tiers_[tier].count(child_tier))
      problem("a move from tier " + tier + " to tier " + child_tier + ", which " + tier +
                  " does not depend on",
              s, c.key);
    else if (child_tier != tier)
      check_exit_slot(s, tier, c.key);
    if (!game_.has_predecessors()) return;
    ++r_.edges;
    game_.predecessors(c.key, preds_);
    if (count_key(preds_, s) != count_child(kids_, c.key))
      problem("moves from the first to the second: " + std::to_string(count_child(kids_, c.key)) +
                  ", un-moves: " + std::to_string(count_key(preds_, s)),
              s, c.key);
  }

  // Every parent that predecessors lists reaches s by as many moves as it is listed.
  void check_unmoves(StateKey s) {
    if (!game_.has_predecessors()) return;
    game_.predecessors(s, preds_);
    for (StateKey p : preds_) {
      game_.successors(p, parent_kids_);
      if (count_child(parent_kids_, s) != count_key(preds_, p))
        problem("un-moves of the second to the first: " + std::to_string(count_key(preds_, p)) +
                    ", moves: " + std::to_string(count_child(parent_kids_, s)),
                p, s);
    }
  }

  // A move out of `tier` reaches a state with a slot of exit_slots(tier), its own.
  void check_exit_slot(StateKey s, const std::string& tier, StateKey child) {
    const Game::SlotRange range = game_.exit_slots(tier);
    if (range.size() == 0) return;
    const std::uint64_t slot = game_.exit_slot(child);
    if (slot < range.first || slot >= range.end)
      return problem("exit_slot of the second is " + std::to_string(slot) +
                         ", outside exit_slots(" + tier + ") = [" + std::to_string(range.first) +
                         ", " + std::to_string(range.end) + ")",
                     s, child);
    const StateKey owner = exit_owner_[tier].emplace(slot, child).first->second;
    if (owner != child) problem("two states with exit slot " + std::to_string(slot), owner, child);
  }

  void remember_group_slot(StateKey s, const std::string& tier) {
    const Game::SlotRange range = game_.group_slots(tier);
    if (range.size() == 0) return;
    const std::uint64_t slot = game_.group_slot(s);
    if (slot < range.first || slot >= range.end)
      return problem("group_slot is " + std::to_string(slot) + ", outside group_slots(" + tier +
                         ") = [" + std::to_string(range.first) + ", " + std::to_string(range.end) +
                         ")",
                     s, s);
    group_of_[tier].push_back({s, slot});
  }

  // Within a tier, group slots do not decrease as keys increase.
  void check_group_order() {
    for (auto& [tier, slots] : group_of_) {
      std::sort(slots.begin(), slots.end());
      for (std::size_t i = 1; i < slots.size(); ++i)
        if (slots[i].second < slots[i - 1].second)
          problem("group slots decrease from " + std::to_string(slots[i - 1].second) + " to " +
                      std::to_string(slots[i].second) + " as keys increase",
                  slots[i - 1].first, slots[i].first);
    }
  }
};

}  // namespace

GameCheck verify_game_moves(const Game& game, std::size_t max_states) {
  GameCheck r;
  Verifier(game, r).run(max_states);
  return r;
}

}  // namespace zermelo
