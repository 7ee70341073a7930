// A level's messages when the shards are spread over processes (docs/distributed.md): to the
// inbox of a shard this process holds, or to the rank that holds it through the Cluster.
//
// Why: the senders see one Transport whatever the shards' places. This one routes by the
// shard's rank and leaves the carrying to the Cluster (MPI beside the engine, src/mpi/); what
// other ranks send here arrives on the Cluster's thread and goes into the same inboxes.
#pragma once
#include <atomic>
#include <cstdint>

#include "pipeline/retrograde/inboxes.hpp"
#include "zermelo/engine/cluster.hpp"

namespace zermelo::retro {

class ClusterTransport final : public Transport {
 public:
  // Begins the level's exchange: other ranks' batches go into `inboxes` from now on.
  ClusterTransport(const SolveState& s, Inboxes& inboxes);
  void deliver(unsigned shard, const Msg* msgs, std::size_t n) override;
  // Every rank sent its last batch and every batch for this one is in its inboxes.
  void finish() { cluster_.end_exchange(); }
  // The payload this rank sent to other ranks so far (the level's bytes on the wire, for the
  // cost model of docs/distributed.md).
  std::uint64_t bytes_sent() const { return bytes_sent_.load(std::memory_order_relaxed); }

 private:
  const SolveState& s_;
  Inboxes& inboxes_;
  Cluster& cluster_;
  std::atomic<std::uint64_t> bytes_sent_{0};  // senders run on several threads
};

}  // namespace zermelo::retro
