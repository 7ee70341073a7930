// See undecided_filter.hpp.
#include "pipeline/undecided_filter.hpp"

#include <cstring>
#include <stdexcept>

#include "pipeline/retrograde_records.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {

std::uint64_t UndecidedFilter::bytes_for(const Game& game, const std::string& tier) {
  return huge_page_bytes((game.group_slots(tier).size() + 63) / 64 * sizeof(std::uint64_t));
}

UndecidedFilter::UndecidedFilter(const Game& game, const std::string& tier,
                                 const std::string& states_run)
    : game_(game),
      range_(game.group_slots(tier)),
      size_(range_.size()),
      bits_((size_ + 63) / 64, 0) {
  RunReader run(states_run, IoOptions{}, /*decode_ahead=*/true);
  Progress bar("filter of undecided groups", run.size());
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

std::uint64_t UndecidedFilter::slot_of(StateKey s) const {
  const std::uint64_t slot = game_.group_slot(s);
  if (slot < range_.first || slot >= range_.end)
    throw std::logic_error(game_.name() + ": state " + std::to_string(s) +
                           " has no group slot in its tier's range");
  return slot - range_.first;
}

void UndecidedFilter::record(StateKey s, bool kept) {
  const std::uint64_t g = slot_of(s);
  if (group_ != kNone && g < group_)
    throw std::logic_error(game_.name() + ": group slots are not in key order (state " +
                           std::to_string(s) + " comes after a later group)");
  if (g != group_) {
    close_group();
    group_ = g;
    group_kept_ = after_copy_;
    after_copy_ = false;
  }
  group_kept_ = group_kept_ || kept;
}

void UndecidedFilter::copied_block(StateKey first_key) {
  has_unheard_ = false;
  if (slot_of(first_key) == group_) group_kept_ = true;
  close_group();
  group_ = kNone;
  after_copy_ = true;
}

void UndecidedFilter::end_of_run() {
  has_unheard_ = false;
  close_group();
  group_ = kNone;
  after_copy_ = false;
}

void UndecidedFilter::close_group() {
  if (group_ == kNone || group_kept_) return;
  std::uint64_t& word = bits_[group_ >> 6];
  const std::uint64_t bit = std::uint64_t{1} << (group_ & 63);
  if (word & bit) word &= ~bit, ++cleared_;
}

}  // namespace zermelo::retro
