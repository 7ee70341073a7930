// A tier's key space cut into P contiguous ranges, one a shard (docs/shards.md).
//
// Why: a sharded solve runs each step of a level P ways at once, and every state, message and
// decided value must belong to exactly one shard, the same one in every step and after a resume.
// The cut is balanced by the states the tier has (the enumeration's sorted keys), not by the width
// of the key space, where real games' keys crowd together. Shard s owns the keys from
// first_key(s) up to first_key(s + 1); the ranges cover all 64-bit keys, so that a message to a
// key outside the tier has an owner too.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace zermelo::retro {

class KeyRanges {
 public:
  // One range, every key: the unsharded solve.
  KeyRanges() : first_{0} {}
  // The ranges starting at `first_keys` (first_keys[0] == 0, never decreasing), as recorded.
  explicit KeyRanges(std::vector<std::uint64_t> first_keys);
  // `shards` ranges over the sorted, unique keys of `keys_run`, shard s holding its records
  // first_state(n, shards, s) to first_state(n, shards, s + 1).
  static KeyRanges balanced(const std::string& keys_run, unsigned shards);

  unsigned count() const { return static_cast<unsigned>(first_.size()); }
  // The shard that owns `key`.
  unsigned shard_of(std::uint64_t key) const;
  std::uint64_t first_key(unsigned shard) const { return first_[shard]; }
  const std::vector<std::uint64_t>& first_keys() const { return first_; }

 private:
  std::vector<std::uint64_t> first_;
};

// The rank that holds shard `shard` of `shards` spread over `ranks` processes: consecutive shards
// on each rank, so that a rank's keys are one range too.
inline unsigned rank_of_shard(unsigned shard, unsigned shards, unsigned ranks) {
  return static_cast<unsigned>(std::uint64_t{shard} * ranks / shards);
}

// The shards that rank `rank` of `ranks` holds, ascending; throws std::invalid_argument if none
// (fewer shards than ranks).
std::vector<unsigned> shards_of_rank(unsigned shards, unsigned rank, unsigned ranks);

// The index of shard `shard`'s first state among `states` cut into `shards`: floor(s * n / P),
// without overflow. Also where the shard's values start in the values run.
std::uint64_t first_state(std::uint64_t states, unsigned shards, unsigned shard);

}  // namespace zermelo::retro
