// The shards' first keys found from keys spread over several processes' sorted runs
// (pipeline/retrograde/key_select.hpp): the same ranges as KeyRanges::balanced cuts from the
// keys merged into one run, whatever the share each process holds.
#include "pipeline/retrograde/key_select.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tests/test_util.hpp"

namespace zermelo::retro {
namespace {

std::string keys_run(const std::string& path, std::vector<std::uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  RunOptions o;
  o.block_bytes = 64;  // 8 keys a block: the counts read inside the runs
  o.delta_u64_keys = true;
  RunWriter w(path, o);
  for (std::uint64_t k : keys) w.push(k);
  w.finish();
  return path;
}

TEST(KeySelect, TheRangesOfTheMergedKeysFromEveryShare) {
  const testing::ScratchDir dir;
  std::mt19937_64 random(7);
  for (std::uint64_t n : {1ull, 2ull, 9ull, 100ull, 1000ull}) {
    // Keys crowded at both ends of the key space, dealt to 3 "ranks" at random.
    std::vector<std::uint64_t> all;
    for (std::uint64_t i = 0; i < n; ++i) all.push_back(i % 2 ? 3 * i + 5 : (1ull << 62) + 7 * i);
    std::vector<std::vector<std::uint64_t>> shares(3);
    for (std::uint64_t k : all) shares[random() % 3].push_back(k);
    std::vector<std::unique_ptr<KeyCounter>> counters;
    for (std::size_t r = 0; r < shares.size(); ++r)
      counters.push_back(std::make_unique<KeyCounter>(
          keys_run(dir / ("share-" + std::to_string(r) + ".run"), shares[r])));
    const std::string merged = keys_run(dir / "merged.run", all);
    const auto everyone = [&](std::uint64_t key) {
      std::uint64_t sum = 0;
      for (auto& c : counters) sum += c->at_or_below(key);
      return sum;
    };
    for (unsigned p : {1u, 2u, 3u, 7u, 1500u})
      EXPECT_EQ(select_key_ranges(n, p, everyone).first_keys(),
                KeyRanges::balanced(merged, p).first_keys())
          << n << " keys, " << p << " shards";
  }
}

TEST(KeySelect, CountsAtOrBelowAKey) {
  const testing::ScratchDir dir;
  KeyCounter c(keys_run(dir / "k.run", {4, 8, 15, 16, 23, 42, 50, 51, 52, 60, 61}));
  EXPECT_EQ(c.size(), 11u);
  EXPECT_EQ(c.at_or_below(0), 0u);
  EXPECT_EQ(c.at_or_below(4), 1u);
  EXPECT_EQ(c.at_or_below(51), 8u);
  EXPECT_EQ(c.at_or_below(52), 9u);  // the second block
  EXPECT_EQ(c.at_or_below(7), 1u);   // the first again
  EXPECT_EQ(c.at_or_below(~0ull), 11u);
}

}  // namespace
}  // namespace zermelo::retro
