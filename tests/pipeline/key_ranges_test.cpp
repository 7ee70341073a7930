// The shards' key ranges (pipeline/retrograde/key_ranges.hpp): balanced by the states of the
// tier, contiguous, covering every key, and each state owned by the shard whose slice of the
// sorted keys holds it.
#include "pipeline/retrograde/key_ranges.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::retro {
namespace {

// A keys run of `keys` (sorted, unique), in small blocks so that the cut reads inside the run.
std::string keys_run(const testing::ScratchDir& dir, const std::vector<std::uint64_t>& keys) {
  RunOptions o;
  o.block_bytes = 64;  // 8 keys a block
  o.delta_u64_keys = true;
  RunWriter w(dir / "keys.run", o);
  for (std::uint64_t k : keys) w.push(k);
  w.finish();
  return dir / "keys.run";
}

// Keys crowded at both ends of the key space, as real games' are.
std::vector<std::uint64_t> crowded_keys(std::uint64_t n) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < n / 2; ++i) keys.push_back(3 * i + 5);
  for (std::uint64_t i = n / 2; i < n; ++i) keys.push_back((1ull << 62) + 7 * i);
  return keys;
}

TEST(KeyRanges, FirstStateIsTheFloorOfAnEvenCut) {
  for (std::uint64_t n : {0ull, 1ull, 5ull, 100ull, 5478ull})
    for (unsigned p : {1u, 2u, 3u, 7u})
      for (unsigned s = 0; s <= p; ++s) EXPECT_EQ(first_state(n, p, s), s * n / p) << n << " " << p;
  // Where s * n overflows 64 bits: floor(6 (2^62 + 3) / 7), worked out in exact arithmetic.
  const std::uint64_t big = (1ull << 62) + 3;
  EXPECT_EQ(first_state(big, 7, 6), 3952873730080618206ull);
  EXPECT_EQ(first_state(big, 7, 7), big);
}

TEST(KeyRanges, BalancedByStatesAndEachStateInItsSlice) {
  const testing::ScratchDir dir;
  for (std::uint64_t n : {1ull, 2ull, 5ull, 100ull, 997ull}) {
    const std::vector<std::uint64_t> keys = crowded_keys(n);
    const std::string run = keys_run(dir, keys);
    for (unsigned p : {1u, 2u, 3u, 7u}) {
      const KeyRanges ranges = KeyRanges::balanced(run, p);
      ASSERT_EQ(ranges.count(), p);
      EXPECT_EQ(ranges.first_key(0), 0u);
      std::vector<std::uint64_t> held(p, 0);
      for (std::uint64_t i = 0; i < n; ++i) {
        const unsigned s = ranges.shard_of(keys[i]);
        ++held[s];
        EXPECT_GE(i, first_state(n, p, s)) << "n " << n << " P " << p << " key " << keys[i];
        EXPECT_LT(i, first_state(n, p, s + 1)) << "n " << n << " P " << p << " key " << keys[i];
      }
      for (unsigned s = 0; s < p; ++s) {
        EXPECT_GE(held[s], n / p) << "n " << n << " P " << p << " shard " << s;
        EXPECT_LE(held[s], (n + p - 1) / p) << "n " << n << " P " << p << " shard " << s;
      }
    }
  }
}

TEST(KeyRanges, EveryKeyHasAnOwnerAndTheRangesAreContiguous) {
  const testing::ScratchDir dir;
  const std::vector<std::uint64_t> keys = crowded_keys(100);
  const KeyRanges ranges = KeyRanges::balanced(keys_run(dir, keys), 7);
  unsigned last = 0;
  for (std::uint64_t k : {0ull, 1ull, 4ull, 6ull, 200ull, 1ull << 61, (1ull << 62) + 400, ~0ull}) {
    const unsigned s = ranges.shard_of(k);
    EXPECT_GE(s, last) << k;  // never back: contiguous ranges in key order
    EXPECT_LT(s, 7u);
    last = s;
  }
  EXPECT_EQ(ranges.shard_of(0), 0u);
  EXPECT_EQ(ranges.shard_of(~0ull), 6u);
  EXPECT_EQ(ranges.shard_of((1ull << 62) - 1), 3u);  // the gap belongs to the shard before it
}

TEST(KeyRanges, OneShardOwnsEverythingAndRecordedRangesReadBack) {
  const KeyRanges one;
  EXPECT_EQ(one.count(), 1u);
  EXPECT_EQ(one.shard_of(~0ull), 0u);
  const KeyRanges recorded(std::vector<std::uint64_t>{0, 10, 10, 40});
  EXPECT_EQ(recorded.shard_of(9), 0u);
  EXPECT_EQ(recorded.shard_of(10), 2u);  // shard 1 is empty
  EXPECT_EQ(recorded.shard_of(40), 3u);
  EXPECT_THROW(KeyRanges(std::vector<std::uint64_t>{1, 2}), std::invalid_argument);
  EXPECT_THROW(KeyRanges(std::vector<std::uint64_t>{0, 5, 4}), std::invalid_argument);
}

TEST(KeyRanges, AnEmptyTierLeavesEveryStatelessShardARange) {
  const testing::ScratchDir dir;
  const KeyRanges ranges = KeyRanges::balanced(keys_run(dir, {}), 3);
  ASSERT_EQ(ranges.count(), 3u);
  EXPECT_EQ(ranges.shard_of(12345), 0u);
}

}  // namespace
}  // namespace zermelo::retro
