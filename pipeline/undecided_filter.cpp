// See undecided_filter.hpp.
#include "pipeline/undecided_filter.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "pipeline/retrograde_records.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {

std::uint64_t UndecidedFilter::bytes_for(const Game& game, const std::string& tier) {
  const std::uint64_t words = (game.group_slots(tier).size() + 63) / 64;
  return huge_page_bytes(words * sizeof(std::uint64_t)) + (words + 63) / 64 * sizeof(std::uint64_t);
}

UndecidedFilter::UndecidedFilter(const Game& game, const std::string& tier,
                                 const std::vector<std::string>& states_runs)
    : game_(game),
      range_(game.group_slots(tier)),
      size_(range_.size()),
      bits_((size_ + 63) / 64, 0),
      changes_(bits_.size()) {
  std::uint64_t total = 0;
  for (const std::string& path : states_runs) total += inspect_run(path).record_count;
  Progress bar("filter of undecided groups", total);
  for (const std::string& path : states_runs) {
    RunReader run(path, IoOptions{}, /*decode_ahead=*/true);
    const void* span;
    while (std::size_t n = run.next_span(&span, 1u << 16)) {
      const auto* states = static_cast<const Undecided*>(span);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t g = slot_of(states[i].key);
        bits_[g >> 6] |= std::uint64_t{1} << (g & 63);
      }
      bar.add(n);
    }
  }
}

std::uint64_t UndecidedFilter::slot_of(StateKey s) const {
  const std::uint64_t slot = game_.group_slot(s);
  if (slot < range_.first || slot >= range_.end)
    throw std::logic_error(game_.name() + ": state " + std::to_string(s) +
                           " has no group slot in its tier's range");
  return slot - range_.first;
}

void UndecidedFilter::clear(std::uint64_t group) {
  // Shards' merges clear bits of the same word at once; nothing reads them while they do.
  const std::uint64_t bit = std::uint64_t{1} << (group & 63);
  const std::uint64_t was =
      std::atomic_ref<std::uint64_t>(bits_[group >> 6]).fetch_and(~bit, std::memory_order_relaxed);
  if (was & bit) changes_.mark(group >> 6);
}

void UndecidedFilter::and_changes(const std::vector<std::uint64_t>& pairs) {
  if (pairs.size() % 2 != 0) throw std::logic_error("filter changes: not (index, value) pairs");
  for (std::size_t i = 0; i < pairs.size(); i += 2) {
    if (pairs[i] >= bits_.size())
      throw std::logic_error("filter changes: word " + std::to_string(pairs[i]) +
                             " is beyond the bitmap");
    bits_[pairs[i]] &= pairs[i + 1];
  }
}

void UndecidedFilter::Report::record(StateKey s, bool kept) {
  const std::uint64_t g = filter_.slot_of(s);
  if (group_ != kNone && g < group_)
    throw std::logic_error(filter_.game_.name() + ": group slots are not in key order (state " +
                           std::to_string(s) + " comes after a later group)");
  if (g != group_) {
    close_group();
    group_ = g;
    group_kept_ = after_copy_;
    after_copy_ = false;
  }
  group_kept_ = group_kept_ || kept;
}

void UndecidedFilter::Report::copied_block(StateKey first_key) {
  has_unheard_ = false;
  if (filter_.slot_of(first_key) == group_) group_kept_ = true;
  close_group();
  group_ = kNone;
  after_copy_ = true;
}

void UndecidedFilter::Report::end_of_run() {
  has_unheard_ = false;
  if (open_after_) group_kept_ = true;  // its group may go on in the next shard
  close_group();
  group_ = kNone;
  after_copy_ = false;
}

void UndecidedFilter::Report::close_group() {
  if (group_ != kNone && !group_kept_) filter_.clear(group_);
}

}  // namespace zermelo::retro
