// write_values_with: a values run with records put back is the run a writer given every record
// would have written, byte for byte (the same digest), over several blocks; a key already in the
// run, or records out of order, are refused by name.
#include <gtest/gtest.h>

#include <random>

#include "tests/test_util.hpp"
#include "zermelo/engine/values_run.hpp"

namespace zermelo {
namespace {

// Sorted keys with gaps, values of every kind.
std::vector<KeyValue> some_values(std::size_t n) {
  std::mt19937_64 rng(7);
  std::vector<KeyValue> v;
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    key += 1 + rng() % 5;
    v.push_back(KeyValue{key, static_cast<std::uint16_t>(1 + rng() % 300)});
  }
  return v;
}

RunInfo write_run(const std::string& path, const std::vector<KeyValue>& records) {
  RunWriter w(path, values_run_options());
  for (const auto& kv : records) w.push(kv);
  return w.finish();
}

TEST(ValuesWith, PuttingRecordsBackGivesTheDigestOfTheWholeRun) {
  testing::ScratchDir dir;
  const auto all = some_values(700'000);  // more than three 2 MiB blocks of 10-byte records
  std::vector<KeyValue> kept, removed;
  std::mt19937_64 rng(11);
  for (std::size_t i = 0; i < all.size(); ++i)  // the first and the last among the removed
    (i == 0 || i + 1 == all.size() || rng() % 1000 == 0 ? removed : kept).push_back(all[i]);
  const RunInfo whole = write_run(dir / "whole.run", all);
  const RunInfo part = write_run(dir / "part.run", kept);
  ASSERT_NE(part.digest, whole.digest);
  const RunInfo back = write_values_with(dir / "part.run", removed, dir / "back.run");
  EXPECT_EQ(back.record_count, all.size());
  EXPECT_EQ(back.digest_hex(), whole.digest_hex());
  EXPECT_EQ(back.blocks.size(), whole.blocks.size());
}

TEST(ValuesWith, RefusesAKeyAlreadyThereAndUnsortedRecords) {
  testing::ScratchDir dir;
  const auto all = some_values(1000);
  write_run(dir / "all.run", all);
  try {
    write_values_with(dir / "all.run", {all[500]}, dir / "out.run");
    FAIL() << "a key already in the run was put back";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(all[500].key)), std::string::npos);
  }
  EXPECT_THROW(write_values_with(dir / "all.run", {KeyValue{9, 1}, KeyValue{8, 1}}, dir / "o.run"),
               std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir / "out.run"));
}

}  // namespace
}  // namespace zermelo
