// The shards' first keys when a tier's sorted keys are spread over several processes' runs
// (docs/distributed.md, step 1).
//
// Why: a shard's range is defined on the whole tier's sorted keys (first[s] is the key of record
// floor(s·N/P), docs/shards.md), so that the split and the values digest are the same whatever
// the number of processes. Under MPI no rank holds those keys whole: each holds the sorted keys
// of its share of the enumeration. The key of global record i is the least key x with more than
// i keys at or below it, found by bisecting the 64-bit key space, each probe a sum over the
// ranks of their counts at or below it: 64 sums a shard, one block read a rank each, whatever
// the tier's size.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pipeline/retrograde/key_ranges.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::retro {

// How many keys of a sorted run of u64 keys lie at or below a key, one block read from disk a
// probe (the blocks' first keys narrow it to one block; the last block read is kept).
class KeyCounter {
 public:
  explicit KeyCounter(const std::string& sorted_keys_run);
  std::uint64_t size() const { return keys_.size(); }
  std::uint64_t at_or_below(std::uint64_t key);

 private:
  RunReader keys_;
  std::size_t cached_ = ~std::size_t{0};  // the block in `block_`
  std::vector<std::uint64_t> block_;
};

// The ranges of `shards` over `states` keys in all, `at_or_below(x)` counting every process's
// keys at or below x (on every process the same calls, in the same order: each is a sum over the
// processes). Equal to KeyRanges::balanced of the keys merged into one run.
KeyRanges select_key_ranges(std::uint64_t states, unsigned shards,
                            const std::function<std::uint64_t(std::uint64_t)>& at_or_below);

}  // namespace zermelo::retro
