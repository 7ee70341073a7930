// The shards' first keys from keys spread over processes (key_select.hpp).
#include "pipeline/retrograde/key_select.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace zermelo::retro {

KeyCounter::KeyCounter(const std::string& sorted_keys_run) : keys_(sorted_keys_run) {}

std::uint64_t KeyCounter::at_or_below(std::uint64_t key) {
  const RunInfo& info = keys_.info();
  const std::size_t starting = info.blocks_starting_at_or_below(key);
  if (starting == 0) return 0;  // every key is above it
  const std::size_t b = starting - 1;
  if (b != cached_) {
    const std::vector<std::byte> raw = keys_.read_block(b);
    block_.resize(raw.size() / sizeof(std::uint64_t));
    std::memcpy(block_.data(), raw.data(), block_.size() * sizeof(std::uint64_t));
    cached_ = b;
  }
  const auto past = std::upper_bound(block_.begin(), block_.end(), key);
  return info.blocks[b].first_record + static_cast<std::uint64_t>(past - block_.begin());
}

namespace {

// The least key with more than `index` keys at or below it: the key of record `index`.
std::uint64_t key_of_record(std::uint64_t index, std::uint64_t lo,
                            const std::function<std::uint64_t(std::uint64_t)>& at_or_below) {
  std::uint64_t hi = ~std::uint64_t{0};
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (at_or_below(mid) > index)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

}  // namespace

KeyRanges select_key_ranges(std::uint64_t states, unsigned shards,
                            const std::function<std::uint64_t(std::uint64_t)>& at_or_below) {
  if (shards == 0) throw std::invalid_argument("a solve needs at least one shard");
  std::vector<std::uint64_t> first{0};
  for (unsigned s = 1; s < shards; ++s) {
    const std::uint64_t at = first_state(states, shards, s);
    // Past the last state the shard owns no state; the search starts at the shard before's key.
    first.push_back(at < states ? key_of_record(at, first.back(), at_or_below) : ~0ull);
  }
  return KeyRanges(std::move(first));
}

}  // namespace zermelo::retro
