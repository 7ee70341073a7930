// A level's records when the shards are spread over processes (docs/distributed.md): to the
// inbox of a shard this process holds, or to the rank that holds it through the Cluster. The
// solve sends its messages so, the breadth-first search its successor keys.
//
// Why: the senders see one Transport whatever the shards' places. This one routes by the
// shard's rank and leaves the carrying to the Cluster (MPI beside the engine, src/mpi/); what
// other ranks send here arrives on the Cluster's thread and goes into the same inboxes.
#pragma once
#include <atomic>
#include <cstdint>

#include "pipeline/retrograde/shard_inboxes.hpp"
#include "zermelo/engine/cluster.hpp"

namespace zermelo::retro {

template <class R>
class ClusterTransportOf final : public TransportOf<R> {
 public:
  // Begins the level's exchange of `shards` shards' records: other ranks' batches go into
  // `inboxes` from now on.
  ClusterTransportOf(Cluster& cluster, unsigned shards, InboxesOf<R>& inboxes)
      : cluster_(cluster), shards_(shards), inboxes_(inboxes) {
    cluster_.begin_exchange([this](unsigned shard, const void* data, std::size_t bytes) {
      inboxes_.deliver(shard, static_cast<const R*>(data), bytes / sizeof(R));
    });
  }
  void deliver(unsigned shard, const R* records, std::size_t n) override {
    const unsigned local = inboxes_.local_index(shard);
    if (local < inboxes_.count()) return inboxes_.deliver_local(local, records, n);
    cluster_.send(rank_of_shard(shard, shards_, cluster_.ranks()), shard, records, n * sizeof(R));
    bytes_sent_.fetch_add(n * sizeof(R), std::memory_order_relaxed);
  }
  // Every rank sent its last batch and every batch for this one is in its inboxes.
  void finish() { cluster_.end_exchange(); }
  // The payload this rank sent to other ranks so far (the level's bytes on the wire, for the
  // cost model of docs/distributed.md).
  std::uint64_t bytes_sent() const { return bytes_sent_.load(std::memory_order_relaxed); }

 private:
  Cluster& cluster_;
  const unsigned shards_;
  InboxesOf<R>& inboxes_;
  std::atomic<std::uint64_t> bytes_sent_{0};  // senders run on several threads
};
using ClusterTransport = ClusterTransportOf<Msg>;

}  // namespace zermelo::retro
