// See unvisited_filter.hpp.
#include "pipeline/unvisited_filter.hpp"

#include <algorithm>
#include <stdexcept>

#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::bfs {

std::optional<Game::SlotRange> UnvisitedFilter::all_groups(const Game& game) {
  std::optional<Game::SlotRange> all;
  for (const Tier& t : game.tiers()) {
    const Game::SlotRange r = game.group_slots(t.name);
    if (r.size() == 0) return std::nullopt;  // a tier without groups: no filter
    if (!all) all = r;
    all->first = std::min(all->first, r.first), all->end = std::max(all->end, r.end);
  }
  return all;
}

std::optional<Game::SlotRange> UnvisitedFilter::groups_of_run(const Game& game, Game::SlotRange all,
                                                              const std::string& run) {
  RunReader keys(run, IoOptions{}, /*decode_ahead=*/true);
  std::uint64_t least = all.end, most = all.first;
  const void* span;
  while (const std::size_t n = keys.next_span(&span, 1u << 16)) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t slot = game.group_slot(static_cast<const StateKey*>(span)[i]);
      least = std::min(least, slot), most = std::max(most, slot);
    }
  }
  if (least > most) return std::nullopt;
  return Game::SlotRange{std::max(least, all.first), std::min(most + 1, all.end)};
}

unsigned UnvisitedFilter::bits_that_fit(std::uint64_t groups, std::uint64_t budget) {
  for (unsigned bits : {8u, 4u, 2u, 1u})
    if (huge_page_bytes((groups * bits + 63) / 64 * sizeof(std::uint64_t)) <= budget) return bits;
  return 0;
}

UnvisitedFilter::UnvisitedFilter(const Game& game, Game::SlotRange groups, unsigned bits_per_group,
                                 const std::string& unvisited_run)
    : game_(game),
      range_(groups),
      groups_(groups.size()),
      bits_(bits_per_group),
      words_((groups_ * bits_ + 63) / 64, 0) {
  if (bits_ == 0 || bits_ > 8 || (bits_ & (bits_ - 1)) != 0)
    throw std::invalid_argument("bits a group must be 1, 2, 4 or 8");
  RunReader run(unvisited_run, IoOptions{}, /*decode_ahead=*/true);
  Progress bar("filter of unvisited groups", run.size());
  const void* span;
  while (std::size_t n = run.next_span(&span, 1u << 16)) {
    const auto* keys = static_cast<const StateKey*>(span);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t bit = slot_of(keys[i]) * bits_ + bucket(keys[i]);
      words_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
    }
    bar.add(n);
  }
}

std::uint64_t UnvisitedFilter::slot_of(StateKey s) const {
  const std::uint64_t slot = game_.group_slot(s);
  if (slot < range_.first || slot >= range_.end)
    throw std::logic_error(game_.name() + ": state " + std::to_string(s) +
                           " has no group slot in the tiers' ranges");
  return slot - range_.first;
}

void UnvisitedFilter::state(StateKey s, bool kept) {
  const std::uint64_t g = slot_of(s);
  if (g != group_) {
    if (group_ != kNone && g < group_)
      throw std::logic_error(game_.name() + ": group slots are not in key order (state " +
                             std::to_string(s) + " comes after a later group)");
    close_group();
    group_ = g;
    kept_buckets_ = 0;
    visited_ = false;
    unseen_states_ = after_copy_;  // the copied block just before may end with states of this group
    after_copy_ = false;
  }
  if (kept)
    kept_buckets_ |= static_cast<std::uint8_t>(1u << bucket(s));
  else
    visited_ = true;
}

// Key i was visited and its group is not followed yet: its states before i in the span were not
// (or the group would be followed), and those before the span are unknown.
void UnvisitedFilter::open_group_at(const StateKey* span, std::size_t i) {
  const std::uint64_t g = slot_of(span[i]);
  std::size_t first = i;
  while (first > 0 && slot_of(span[first - 1]) == g) --first;
  for (std::size_t k = first; k < i; ++k) state(span[k], true);
  state(span[i], false);
  if (first == 0) unseen_states_ = true;
  open_ = g;
}

void UnvisitedFilter::copied_block(StateKey first_key) {
  if (group_ != kNone && slot_of(first_key) == group_) unseen_states_ = true;
  close_group();
  group_ = kNone;
  open_ = kNone;
  after_copy_ = true;
}

void UnvisitedFilter::end_of_run() {
  close_group();
  group_ = kNone;
  open_ = kNone;
  after_copy_ = false;
}

void UnvisitedFilter::close_group() {
  if (group_ == kNone || !visited_ || unseen_states_) return;
  for (unsigned b = 0; b < bits_; ++b) {
    const std::uint64_t bit = group_ * bits_ + b;
    std::uint64_t& word = words_[bit >> 6];
    const std::uint64_t mask = std::uint64_t{1} << (bit & 63);
    if ((word & mask) && !(kept_buckets_ >> b & 1)) word &= ~mask, ++cleared_;
  }
}

}  // namespace zermelo::bfs
