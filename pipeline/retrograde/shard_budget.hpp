// What a sharded solve holds beside its sorters, charged to --memory (docs/shards.md).
//
// Why: --memory is a hard limit, and shards multiply what a pass holds besides its sorters. One
// shard's pass keeps its readers, writers and outboxes in kPassOverhead; with P shards up to
// `threads` of those passes run at once beside the level's P inboxes, and step 3 writes P runs
// at once beside one sorter. The sorters share only what is left once these are counted; a
// solve whose shards cannot fit at all is refused before it starts, with the figure it needs.
#pragma once
#include <cstdint>
#include <string>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::retro {

class ShardBudget {
 public:
  explicit ShardBudget(const SolveOptions& opt);

  // The memory a level's shards hold beside their P inboxes: the passes running at once, each
  // with its readers and writers and one outbox a shard (one shard: kPassOverhead, as before).
  std::uint64_t level_passes() const;
  // What step 3 holds beside its one sorter for writing `options` runs one a shard: the writers
  // beyond the one its pass overhead counts.
  std::uint64_t extra_writers(const RunOptions& options) const;
  // The least --memory the solve needs: the busiest of the initial scan, step 3 and a level.
  std::uint64_t floor() const;
  // Throws std::invalid_argument, naming what is missing, if --memory is below floor().
  void check() const;

 private:
  const SolveOptions& opt_;
  unsigned shards_, at_once_;  // shards, and how many of them run at once (threads)
};

}  // namespace zermelo::retro
