// See zermelo/games/ostle/group_losses.hpp.
#include "zermelo/games/ostle/group_losses.hpp"

#include <algorithm>
#include <stdexcept>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::ostle {
namespace {

// The slots of every tier's groups: one numbering serves the whole game.
Game::SlotRange all_groups(const Game& game) {
  Game::SlotRange all{~std::uint64_t{0}, 0};
  for (const Tier& t : game.tiers()) {
    const Game::SlotRange r = game.group_slots(t.name);
    if (r.size() == 0) continue;
    all.first = std::min(all.first, r.first), all.end = std::max(all.end, r.end);
  }
  if (all.end == 0) throw std::invalid_argument(game.name() + " numbers no groups of states");
  return all;
}

}  // namespace

std::uint64_t GroupLosses::bits_bytes(const Game& game) {
  return 2 * ((all_groups(game).size() + 63) / 64) * sizeof(std::uint64_t);
}

GroupLosses::GroupLosses(const Game& game, const std::vector<std::string>& values_runs,
                         std::uint64_t memory_bytes)
    : game_(game), range_(all_groups(game)), memory_bytes_(memory_bytes) {
  if (bits_bytes(game) > memory_bytes)
    throw std::invalid_argument(
        "the bits of lost positions take " + format_bytes(static_cast<double>(bits_bytes(game))) +
        ", more than the memory budget (" + format_bytes(static_cast<double>(memory_bytes)) + ")");
  some_.assign((range_.size() + 63) / 64, 0);
  every_.assign(some_.size(), 0);
  for_each_group(values_runs, "positions lost",
                 [&](std::uint64_t g, bool some, bool every, const std::vector<StateKey>& keys) {
                   const std::uint64_t bit = std::uint64_t{1} << (g & 63);
                   if (some) some_[g >> 6] |= bit;
                   if (some && every) every_[g >> 6] |= bit;
                   if (some && !every) ++mixed_groups_, keep_mixed(keys);
                 });
  std::sort(mixed_lost_.begin(), mixed_lost_.end());  // the runs' order is the tiers' order
}

// The list grows by doubling within the budget: while it moves, the old and the new are held.
void GroupLosses::keep_mixed(const std::vector<StateKey>& keys) {
  const std::size_t need = mixed_lost_.size() + keys.size();
  if (need > mixed_lost_.capacity()) {
    const std::size_t grown = std::max<std::size_t>(1 << 20, 2 * need);
    const std::uint64_t bits = (some_.size() + every_.size()) * sizeof(std::uint64_t);
    if (bits + (mixed_lost_.capacity() + grown) * sizeof(StateKey) > memory_bytes_)
      throw std::invalid_argument(
          "the lost states of the positions whose states differ (" + std::to_string(mixed_groups_) +
          " so far) take more than the memory budget (" +
          format_bytes(static_cast<double>(memory_bytes_)) +
          ") beside the bits of lost positions (" + format_bytes(static_cast<double>(bits)) + ")");
    mixed_lost_.reserve(grown);
  }
  mixed_lost_.insert(mixed_lost_.end(), keys.begin(), keys.end());
}

template <class Close>
void GroupLosses::for_each_group(const std::vector<std::string>& values_runs,
                                 const std::string& label, Close&& close) const {
  std::uint64_t total = 0;
  for (const std::string& path : values_runs) total += inspect_run(path).record_count;
  Progress bar(label, total);
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  for (const std::string& path : values_runs) {
    RunReader run(path);
    std::uint64_t group = kNone, n = 0;
    bool some = false, every = true;
    std::vector<StateKey> lost;
    for (KeyValue kv; run.next(kv);) {
      if (++n % 65536 == 0) bar.add(65536);
      const std::uint64_t g = game_.group_slot(kv.key) - range_.first;
      if (g >= range_.size())
        throw std::logic_error(game_.name() + ": state " + std::to_string(kv.key) + " of " + path +
                               " has no group");
      if (g != group) {
        if (group != kNone) close(group, some, every, lost);
        group = g, some = false, every = true, lost.clear();
      }
      const bool l = Value::from_raw(kv.value).is_loss();
      some |= l, every &= l;
      if (l) lost.push_back(kv.key);
    }
    if (group != kNone) close(group, some, every, lost);
    bar.add(n % 65536);
  }
}

bool GroupLosses::lost(StateKey s) const {
  const std::uint64_t g = game_.group_slot(s) - range_.first;
  if (g >= range_.size() || !bit(some_, g)) return false;
  if (bit(every_, g)) return true;
  return std::binary_search(mixed_lost_.begin(), mixed_lost_.end(), s);
}

std::uint64_t GroupLosses::bytes() const {
  return (some_.size() + every_.size()) * sizeof(std::uint64_t) +
         mixed_lost_.capacity() * sizeof(StateKey);
}

}  // namespace zermelo::ostle
