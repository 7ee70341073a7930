// The shards' inboxes in one process: a level's message sorter for each shard, behind its own
// lock, as the in-process Transport (transport.hpp, docs/shards.md).
//
// Why: the shards send at once from their own threads, and any of them may send to any inbox.
// One sorter a shard keeps each shard's sort and merge its own; the memory budget the filter
// leaves is split between them. Across MPI ranks each process has the inboxes of its own shards,
// which ClusterTransport fills (docs/distributed.md).
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
  // To shard `shard`, which this process holds.
  void deliver(unsigned shard, const Msg* msgs, std::size_t n) override;
  void deliver_local(unsigned local, const Msg* msgs, std::size_t n);  // by local index
  // Ends the sending: every inbox sorted, the shards at once.
  void sort();
  ExternalSorter<Msg>& of(unsigned local) { return *sorters_[local]; }
  std::uint64_t size() const;  // the messages delivered to this process's shards

 private:
  const SolveState& s_;
  std::vector<std::unique_ptr<ExternalSorter<Msg>>> sorters_;
  std::vector<std::mutex> locks_;
};

}  // namespace zermelo::retro
