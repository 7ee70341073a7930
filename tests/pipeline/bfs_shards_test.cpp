// The shards of the breadth-first search over all states (pipeline/bfs_shards.hpp): a run cut by
// the shards' ranges and joined back is the run, its blocks taken as stored, also when the joined
// run is written with another block size (BfsOptions::block_bytes changed between a kill and its
// resume); a shard's run of another layout, which no version of the search writes, is refused,
// whether joined here or sent to rank 0.
#include "pipeline/bfs_shards.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "tests/test_util.hpp"

namespace zermelo::bfs {
namespace {

// 1,000 keys, every third from 1, in blocks of 8 keys.
std::vector<StateKey> every_third_key(const std::string& path) {
  std::vector<StateKey> keys;
  RunWriter w(path, key_run(64));
  for (StateKey k = 1; keys.size() < 1000; k += 3) keys.push_back(k), w.push(k);
  w.finish();
  return keys;
}

std::vector<StateKey> keys_of(const std::string& path) {
  std::vector<StateKey> keys;
  RunReader in(path);
  for (StateKey k; in.next(k);) keys.push_back(k);
  return keys;
}

TEST(BfsShards, JoinTakesTheShardsBlocksAsStoredWhateverTheirSize) {
  const testing::ScratchDir dir;
  const std::vector<StateKey> keys = every_third_key(dir / "whole.run");
  Shards shards(dir.str(), 3, nullptr);
  shards.set_ranges(retro::KeyRanges::balanced(dir / "whole.run", 3));
  const std::vector<RunInfo> cut = shards.split(dir / "whole.run", "u.run", key_run(64));
  ASSERT_EQ(cut.size(), 3u);
  std::size_t blocks = 0;
  for (const RunInfo& run : cut) {
    EXPECT_GE(run.record_count, 333u);  // 1,000 keys in three balanced stretches
    EXPECT_LE(run.record_count, 334u);
    blocks += run.blocks.size();
  }
  const RunInfo joined = shards.join("u.run", dir / "joined.run", key_run(1u << 20));
  EXPECT_EQ(keys_of(dir / "joined.run"), keys);
  // Re-encoded into 1 MiB blocks the 8,000 bytes would be one block: the shards' blocks are kept.
  EXPECT_EQ(joined.blocks.size(), blocks);
  EXPECT_GE(blocks, 1000u / 8);
}

TEST(BfsShards, JoinRefusesAShardRunOfAnotherLayout) {
  const testing::ScratchDir dir;
  every_third_key(dir / "whole.run");
  Shards shards(dir.str(), 2, nullptr);
  shards.set_ranges(retro::KeyRanges::balanced(dir / "whole.run", 2));
  RunOptions plain = key_run(64);
  plain.shuffle_bytes = false;  // byte planes: another encoding of the same keys
  shards.split(dir / "whole.run", "u.run", plain);
  EXPECT_THROW(shards.join("u.run", dir / "joined.run", key_run(64)), std::logic_error);
  RunWriter out(dir / "out.run", key_run(64));
  EXPECT_THROW(shards.append_to("u.run", out), std::logic_error);
  // What a rank other than 0 does before its blocks cross to rank 0's writer: no block leaves.
  std::size_t sent = 0;
  const auto send = [&](const BlockInfo&, const std::vector<std::byte>&) { ++sent; };
  EXPECT_THROW(shards.for_each_stored_block("u.run", key_run(64), send), std::logic_error);
  EXPECT_EQ(sent, 0u);
  shards.for_each_stored_block("u.run", plain, send);  // the layout it was written with
  EXPECT_GT(sent, 0u);
}

}  // namespace
}  // namespace zermelo::bfs
