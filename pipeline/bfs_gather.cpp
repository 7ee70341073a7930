// Every rank's shards' runs joined into rank 0's (bfs_gather.hpp).
#include "pipeline/bfs_gather.hpp"

#include <cstring>

namespace zermelo::bfs {
namespace {

// A rank's blocks to rank 0, each sent with its index entry, then the end of its stream. Each
// block is checked against its checksum as it is read, and each run against rank 0's `layout`
// before any of its blocks leaves: rank 0 sees only the blocks.
void send_blocks_to_root(const Shards& shards, const std::string& name, const RunOptions& layout) {
  Cluster& cluster = *shards.cluster();
  std::vector<std::byte> message;
  shards.for_each_stored_block(name, layout, [&](const BlockInfo& b, const auto& stored) {
    message.resize(sizeof b + stored.size());
    std::memcpy(message.data(), &b, sizeof b);
    std::memcpy(message.data() + sizeof b, stored.data(), stored.size());
    cluster.send_to_root(message.data(), message.size());
  });
  cluster.send_to_root(nullptr, 0);
}

// Rank `from`'s blocks appended to `joined` as they come.
void append_blocks_of(Cluster& cluster, unsigned from, RunWriter& joined) {
  std::vector<std::byte> message, stored;
  while (cluster.receive_from(from, message)) {
    BlockInfo b;
    std::memcpy(&b, message.data(), sizeof b);
    stored.assign(message.begin() + sizeof b, message.end());
    joined.append_stored_block(b, stored);
  }
}

}  // namespace

Gathered gather_to_root(const Shards& shards, const std::string& name, const std::string& out,
                        const RunOptions& options) {
  Cluster& cluster = *shards.cluster();
  if (cluster.rank() > 0) return send_blocks_to_root(shards, name, options), Gathered{};
  Gathered g;
  RunWriter joined(out, options);
  shards.append_to(name, joined);  // rank 0's own shards first
  g.by_rank.push_back(joined.records());
  for (unsigned from = 1; from < cluster.ranks(); ++from) {
    const std::uint64_t before = joined.records();
    append_blocks_of(cluster, from, joined);
    g.by_rank.push_back(joined.records() - before);
  }
  g.run = joined.finish();
  return g;
}

}  // namespace zermelo::bfs
