#include "zermelo/sort/stxxl_sorter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "tests/test_util.hpp"
#include "zermelo/sort/external_sort.hpp"

namespace zermelo {
namespace {

TEST(StxxlSorter, AgreesWithOurExternalSortAndStaysInTheWorkDir) {
  testing::ScratchDir dir;
  const bool var_tmp_before = std::filesystem::exists("/var/tmp/stxxl");
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> keys(3'000'000);
  for (auto& k : keys) k = (rng() >> 1) + 1;  // never the sentinels 0 and UINT64_MAX
  StxxlSorter<std::uint64_t, std::less<std::uint64_t>, 0, UINT64_MAX> s(dir / "stxxl", 16ull << 20,
                                                                        keys.size() * 8);
  SortOptions o;
  o.scratch_dir = dir / "ours";
  o.memory_bytes = 32ull << 20;
  ExternalSorter<std::uint64_t> ours(o);
  for (auto k : keys) s.push(k), ours.push(k);
  s.sort();
  ours.sort();
  std::sort(keys.begin(), keys.end());
  std::uint64_t a, b;
  for (auto k : keys) {
    ASSERT_TRUE(s.next(a));
    ASSERT_TRUE(ours.next(b));
    ASSERT_EQ(a, k);
    ASSERT_EQ(b, k);
  }
  EXPECT_FALSE(s.next(a));
  EXPECT_EQ(std::filesystem::exists("/var/tmp/stxxl"), var_tmp_before)
      << "STXXL used its default disk";
}

}  // namespace
}  // namespace zermelo
