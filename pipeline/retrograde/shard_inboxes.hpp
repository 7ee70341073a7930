// The inboxes of the shards one process holds: a sorter for each shard, behind its own lock, as
// the in-process TransportOf (transport.hpp, docs/shards.md). The solve's messages (Inboxes)
// and the breadth-first search's successor keys (pipeline/bfs_unvisited.cpp) both go through it.
//
// Why: the shards send at once from their own threads, and any of them may send to any inbox.
// One sorter a shard keeps each shard's sort and merge its own. Across MPI ranks each process
// has the inboxes of its own shards, which ClusterTransportOf fills (docs/distributed.md).
#pragma once
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/transport.hpp"
#include "zermelo/sort/external_sort.hpp"

namespace zermelo::retro {

template <class R>
class InboxesOf : public TransportOf<R> {
 public:
  // One inbox for each shard of `shard_ids` (this process's, ascending), sorting with its own
  // options; the inboxes are sorted `threads` at a time.
  InboxesOf(std::vector<unsigned> shard_ids, const std::vector<SortOptions>& options,
            unsigned threads)
      : ids_(std::move(shard_ids)), locks_(ids_.size()), threads_(threads) {
    for (const SortOptions& o : options) sorters_.push_back(std::make_unique<ExternalSorter<R>>(o));
  }
  // To shard `shard`, which this process holds.
  void deliver(unsigned shard, const R* records, std::size_t n) override {
    deliver_local(local_index(shard), records, n);
  }
  void deliver_local(unsigned local, const R* records, std::size_t n) {  // by local index
    const std::lock_guard<std::mutex> hold(locks_[local]);
    ExternalSorter<R>& inbox = *sorters_[local];
    for (std::size_t i = 0; i < n; ++i) inbox.push(records[i]);
  }
  // The local index of shard `shard`, or count() if another process holds it.
  unsigned local_index(unsigned shard) const {
    const auto at = std::lower_bound(ids_.begin(), ids_.end(), shard);
    return static_cast<unsigned>(at != ids_.end() && *at == shard ? at - ids_.begin()
                                                                  : ids_.size());
  }
  unsigned count() const { return static_cast<unsigned>(sorters_.size()); }
  // Ends the sending: every inbox sorted, the shards at once (one inbox keeps every thread).
  void sort() {
    if (count() == 1) return sorters_[0]->sort();
    parallel_for<char>(threads_, count(), 1,
                       [&](std::size_t, std::size_t i, char&) { sorters_[i]->sort(); });
  }
  ExternalSorter<R>& of(unsigned local) { return *sorters_[local]; }
  std::uint64_t size() const {  // the records delivered to this process's shards
    std::uint64_t n = 0;
    for (const auto& sorter : sorters_) n += sorter->size();
    return n;
  }
  std::uint64_t spilled_runs() const {  // the runs the inboxes' sorts wrote to disk
    std::uint64_t n = 0;
    for (const auto& sorter : sorters_) n += sorter->spilled_runs();
    return n;
  }

 private:
  std::vector<unsigned> ids_;
  std::vector<std::unique_ptr<ExternalSorter<R>>> sorters_;
  std::vector<std::mutex> locks_;
  unsigned threads_;
};

}  // namespace zermelo::retro
