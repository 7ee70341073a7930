// One bit a group of states (Game::group_slots): "some state of this group is still undecided".
// A level's un-moves send most of their messages, in a large tier's middle levels, to states that
// were decided levels ago; the merge would drop them, but only after they were sorted and spilled.
// With this filter they are dropped as they are made. The bits are set from the states runs (one a
// shard) once a process, then cleared by each level's merges as whole groups become decided
// (groups are consecutive in key order, which the merge checks).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/word_changes.hpp"
#include "zermelo/game.hpp"
#include "zermelo/util/huge_pages.hpp"

namespace zermelo::retro {

class UndecidedFilter {
 public:
  static std::uint64_t bytes_for(const Game& game, const std::string& tier);
  // Bits set for the groups of the undecided states in `states_runs` (runs of Undecided records:
  // S_d, one a shard).
  UndecidedFilter(const Game& game, const std::string& tier,
                  const std::vector<std::string>& states_runs);

  // False if no state of s's group is undecided: a message to s can be dropped. Also false for a
  // key outside the tier's groups (an un-move that puts a piece back leads to a higher tier): every
  // state of the states run has a group in range (the constructor checks).
  bool may_be_undecided(StateKey s) const {
    const std::uint64_t g = game_.group_slot(s) - range_.first;
    return g < size_ && (bits_[g >> 6] >> (g & 63) & 1);
  }
  std::uint64_t bytes() const {
    return huge_page_bytes(bits_.size() * sizeof(std::uint64_t)) + changes_.bytes();
  }
  // The bitmap, for processes that each set and clear their own shards' groups and combine them
  // (Cluster::combine): or-ed once made, and-ed after each level's merges.
  std::uint64_t* words() { return bits_.data(); }
  std::size_t word_count() const { return bits_.size(); }
  // Or only the words this process cleared bits of since the last take_changes (or
  // forget_changes): (index, value) pairs, which the other processes and_changes into theirs.
  std::uint64_t changed_words() const { return changes_.count(); }
  std::vector<std::uint64_t> take_changes() { return changes_.take(bits_.data()); }
  void forget_changes() { changes_.forget(); }
  void and_changes(const std::vector<std::uint64_t>& pairs);

  // One merge's report of its states run, one shard's S_d. The shards' merges report at once, each
  // clearing the groups that close in its run with none of their states kept. A group at either
  // end of a shard's run may have states in the next shard too: it is never cleared
  // (docs/shards.md).
  class Report {
   public:
    // `open_before` / `open_after`: shards come before / after this one.
    Report(UndecidedFilter& filter, bool open_before, bool open_after)
        : filter_(filter), after_copy_(open_before), open_after_(open_after) {}

    // Every state of the run in key order, kept (still undecided) or decided, and each block
    // copied without decoding by its first key (all of it kept). Only decided states, the kept
    // state just before each and the states after while the group is open are looked at; the
    // other kept states cannot change a bit and cost a compare.
    void state(StateKey s, bool kept) {
      if (kept && !wants_next()) {
        unheard_ = s, has_unheard_ = true;
        return;
      }
      if (!kept && has_unheard_) record(unheard_, true);
      has_unheard_ = false;
      record(s, kept);
    }
    void copied_block(StateKey first_key);
    void end_of_run();

   private:
    bool wants_next() const { return group_ != kNone && !group_kept_; }
    void record(StateKey s, bool kept);
    void close_group();

    UndecidedFilter& filter_;
    // The group being reported: whether one of its states stays undecided. After a copied block
    // (or at the start of a shard after the first) the next group is assumed to have one: the
    // block's last state (the shard before) may be of it.
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    std::uint64_t group_ = kNone;
    bool group_kept_ = false, after_copy_, open_after_;
    StateKey unheard_ = 0;  // the last kept state not looked at
    bool has_unheard_ = false;
  };

 private:
  std::uint64_t slot_of(StateKey s) const;  // checked: in range
  void clear(std::uint64_t group);          // from any shard's merge at once

  const Game& game_;
  Game::SlotRange range_;
  std::uint64_t size_;
  HugeVector<std::uint64_t> bits_;  // huge pages: fewer TLB misses on random look-ups
  WordChanges changes_;             // the words clear() changed
};

}  // namespace zermelo::retro
