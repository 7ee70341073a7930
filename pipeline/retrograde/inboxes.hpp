// The shards' inboxes in one process: a level's message sorter for each shard, behind its own
// lock, as the in-process Transport (transport.hpp, docs/shards.md).
//
// Why: the shards send at once from their own threads, and any of them may send to any inbox.
// One sorter a shard keeps each shard's sort and merge its own; the memory budget the filter
// leaves is split between them. An MPI transport will put one inbox in each rank instead.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "pipeline/retrograde/state.hpp"
#include "pipeline/retrograde/transport.hpp"

namespace zermelo::retro {

class Inboxes final : public Transport {
 public:
  explicit Inboxes(const SolveState& s);
  void deliver(unsigned shard, const Msg* msgs, std::size_t n) override;
  // Ends the sending: every inbox sorted, the shards at once.
  void sort();
  ExternalSorter<Msg>& of(unsigned shard) { return *sorters_[shard]; }
  std::uint64_t size() const;  // the messages delivered to every shard

 private:
  const SolveState& s_;
  std::vector<std::unique_ptr<ExternalSorter<Msg>>> sorters_;
  std::vector<std::mutex> locks_;
};

}  // namespace zermelo::retro
