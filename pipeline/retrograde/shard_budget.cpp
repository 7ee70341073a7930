// The memory a sharded solve holds beside its sorters (shard_budget.hpp).
#include "pipeline/retrograde/shard_budget.hpp"

#include <algorithm>
#include <stdexcept>

#include "pipeline/retrograde/state.hpp"
#include "pipeline/retrograde/transport.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::retro {

ShardBudget::ShardBudget(const SolveOptions& opt)
    : opt_(opt),
      shards_(std::max(1u, opt.shards)),
      at_once_(std::min(shards_, std::max(1u, opt.threads))) {}

std::uint64_t ShardBudget::level_passes() const {
  return at_once_ * (kPassOverhead + (shards_ - 1) * std::uint64_t{Router::outbox_bytes()});
}

std::uint64_t ShardBudget::extra_writers(const RunOptions& options) const {
  return (shards_ - 1) * std::uint64_t{RunWriter::memory_bytes(options)};
}

std::uint64_t ShardBudget::floor() const {
  const std::uint64_t level = level_passes() + shards_ * kMinSorter;
  // Step 3's largest runs: S_0 compressed (its block size is the solve's), or the scheduled work.
  const RunOptions s0 = undecided_run_options(~0ull / sizeof(Undecided), opt_);
  const std::uint64_t writers = std::max({extra_writers(s0), extra_writers(run_options<LevelMsg>()),
                                          extra_writers(run_options<Edge>())});
  return std::max({kMemoryFloor, level, kPassOverhead + kMinSorter + writers});
}

void ShardBudget::check() const {
  if (opt_.memory_bytes >= floor()) return;
  const std::string memory = "--memory " + format_size_argument(opt_.memory_bytes);
  if (shards_ == 1)
    throw std::invalid_argument(memory + " is below the out-of-core solver's floor (" +
                                format_size_argument(floor()) + ")");
  throw std::invalid_argument(memory + " is below the " + format_size_argument(floor()) + " that " +
                              std::to_string(shards_) + " shards need, " +
                              std::to_string(at_once_) +
                              " at once (give more memory or fewer shards)");
}

}  // namespace zermelo::retro
