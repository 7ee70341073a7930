// The shards' inboxes in one process (inboxes.hpp).
#include "pipeline/retrograde/inboxes.hpp"

#include <algorithm>

namespace zermelo::retro {
namespace {

// Shard `shard`'s message sorter, in its share of the budget the filter and the shards' passes
// leave (sort_options_within takes one pass's overhead itself).
SortOptions message_sort(const SolveState& s, unsigned shard) {
  const std::uint64_t memory = s.opt.memory_bytes - (s.filter ? s.filter->bytes() : 0) -
                               (s.budget.level_passes() - kPassOverhead);
  SortOptions o = shard_sort_options_within(memory, s, shard, Sorter::messages, s.local_shards());
  if (s.opt.message_sort_bytes) o.memory_bytes = std::min(o.memory_bytes, s.opt.message_sort_bytes);
  o.raw_spill_bytes = s.opt.raw_run_bytes;  // read once, soon: raw I/O beats zstd while it fits
  o.run.delta_u64_keys = true;              // messages are sorted words
  return o;
}

std::vector<SortOptions> message_sorts(const SolveState& s) {
  std::vector<SortOptions> sorts;
  for (unsigned shard = 0; shard < s.local_shards(); ++shard)
    sorts.push_back(message_sort(s, shard));
  return sorts;
}

}  // namespace

Inboxes::Inboxes(const SolveState& s)
    : InboxesOf<Msg>(s.shard_ids, message_sorts(s), s.opt.threads) {}

}  // namespace zermelo::retro
