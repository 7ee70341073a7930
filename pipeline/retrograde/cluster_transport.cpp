// A level's messages across processes (cluster_transport.hpp).
#include "pipeline/retrograde/cluster_transport.hpp"

namespace zermelo::retro {

ClusterTransport::ClusterTransport(const SolveState& s, Inboxes& inboxes)
    : s_(s), inboxes_(inboxes), cluster_(*s.opt.cluster) {
  cluster_.begin_exchange([this](unsigned shard, const void* data, std::size_t bytes) {
    inboxes_.deliver_local(s_.local_index(shard), static_cast<const Msg*>(data),
                           bytes / sizeof(Msg));
  });
}

void ClusterTransport::deliver(unsigned shard, const Msg* msgs, std::size_t n) {
  const unsigned local = s_.local_index(shard);
  if (local < s_.local_shards()) return inboxes_.deliver_local(local, msgs, n);
  cluster_.send(rank_of_shard(shard, s_.shards(), cluster_.ranks()), shard, msgs, n * sizeof(Msg));
  bytes_sent_.fetch_add(n * sizeof(Msg), std::memory_order_relaxed);
}

}  // namespace zermelo::retro
