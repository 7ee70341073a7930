// The key ranges of the shards (key_ranges.hpp).
#include "pipeline/retrograde/key_ranges.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "zermelo/io/run_file.hpp"

namespace zermelo::retro {

KeyRanges::KeyRanges(std::vector<std::uint64_t> first_keys) : first_(std::move(first_keys)) {
  if (first_.empty() || first_[0] != 0 || !std::is_sorted(first_.begin(), first_.end()))
    throw std::invalid_argument("key ranges must start at key 0 and never decrease");
}

std::uint64_t first_state(std::uint64_t states, unsigned shards, unsigned shard) {
  // s * (n / P) + s * (n % P) / P is floor(s * n / P), and s * (n % P) < P * P does not overflow.
  return shard * (states / shards) + std::uint64_t{shard} * (states % shards) / shards;
}

KeyRanges KeyRanges::balanced(const std::string& keys_run, unsigned shards) {
  if (shards == 0) throw std::invalid_argument("a solve needs at least one shard");
  const std::uint64_t states = inspect_run(keys_run).record_count;
  std::vector<std::uint64_t> first{0};
  for (unsigned s = 1; s < shards; ++s) {
    const std::uint64_t at = first_state(states, shards, s);
    std::uint64_t key = ~0ull;  // past the last state: the shard owns no state
    if (at < states) {
      RunReader keys(keys_run);
      keys.skip_to(at);
      keys.next(key);
    }
    first.push_back(key);
  }
  return KeyRanges(std::move(first));
}

std::vector<unsigned> shards_of_rank(unsigned shards, unsigned rank, unsigned ranks) {
  std::vector<unsigned> held;
  for (unsigned shard = 0; shard < shards; ++shard)
    if (rank_of_shard(shard, shards, ranks) == rank) held.push_back(shard);
  if (held.empty())
    throw std::invalid_argument(std::to_string(shards) + " shards cannot be spread over " +
                                std::to_string(ranks) + " processes: give one a process or more");
  return held;
}

unsigned KeyRanges::shard_of(std::uint64_t key) const {
  const auto after = std::upper_bound(first_.begin(), first_.end(), key);
  return static_cast<unsigned>(after - first_.begin() - 1);
}

}  // namespace zermelo::retro
