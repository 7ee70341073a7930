// The shards' inboxes in one process (inboxes.hpp).
#include "pipeline/retrograde/inboxes.hpp"

namespace zermelo::retro {
namespace {

// Shard `shard`'s message sorter, in its share of the budget the filter and the shards' passes
// leave (sort_options_within takes one pass's overhead itself).
SortOptions message_sort(const SolveState& s, unsigned shard) {
  const std::uint64_t memory = s.opt.memory_bytes - (s.filter ? s.filter->bytes() : 0) -
                               (s.budget.level_passes() - kPassOverhead);
  SortOptions o = shard_sort_options_within(memory, s, shard, Sorter::messages, s.local_shards());
  o.raw_spill_bytes = s.opt.raw_run_bytes;  // read once, soon: raw I/O beats zstd while it fits
  o.run.delta_u64_keys = true;              // messages are sorted words
  return o;
}

}  // namespace

Inboxes::Inboxes(const SolveState& s) : s_(s), locks_(s.local_shards()) {
  for (unsigned shard = 0; shard < s.local_shards(); ++shard)
    sorters_.push_back(std::make_unique<ExternalSorter<Msg>>(message_sort(s, shard)));
}

void Inboxes::deliver(unsigned shard, const Msg* msgs, std::size_t n) {
  deliver_local(s_.local_index(shard), msgs, n);
}

void Inboxes::deliver_local(unsigned local, const Msg* msgs, std::size_t n) {
  const std::lock_guard<std::mutex> hold(locks_[local]);
  ExternalSorter<Msg>& inbox = *sorters_[local];
  for (std::size_t i = 0; i < n; ++i) inbox.push(msgs[i]);
}

void Inboxes::sort() {
  s_.for_each_shard([&](unsigned shard) { sorters_[shard]->sort(); });
}

std::uint64_t Inboxes::size() const {
  std::uint64_t n = 0;
  for (const auto& sorter : sorters_) n += sorter->size();
  return n;
}

}  // namespace zermelo::retro
