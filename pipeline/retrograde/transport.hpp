// How a level's records reach the shard that owns their key (docs/shards.md): the solve's
// messages, and the breadth-first search's successor keys (pipeline/bfs_unvisited.cpp).
//
// Why an interface: the level loop makes messages and merges them shard by shard, but where a
// shard lives is not its business. In one process a shard's inbox is a sorter beside the others
// (InboxesOf); across MPI ranks it is another process, reached by sending it the batch. The
// senders see only deliver(), as girving/pentago's engine sees only its transport.
#pragma once
#include <cstddef>
#include <vector>

#include "pipeline/retrograde/key_ranges.hpp"
#include "pipeline/retrograde_records.hpp"

namespace zermelo::retro {

// The key a record is routed by: a message's target, or a key itself.
inline std::uint64_t routing_key(const Msg& m) { return m.key(); }
inline std::uint64_t routing_key(std::uint64_t key) { return key; }

template <class R>
class TransportOf {
 public:
  virtual ~TransportOf() = default;
  // REQUIRED: hands `n` records to shard `shard`'s inbox, whose key range holds all their
  // keys. Called from any sending thread at any time until the level's sort begins.
  virtual void deliver(unsigned shard, const R* records, std::size_t n) = 0;
};
using Transport = TransportOf<Msg>;

// One sender's outboxes: records batched by the shard that owns their key, so that the
// transport is called once a batch rather than once a record.
template <class R>
class RouterOf {
 public:
  RouterOf(const KeyRanges& ranges, TransportOf<R>& transport)
      : ranges_(ranges), transport_(transport), out_(ranges.count()) {}
  RouterOf(const RouterOf&) = delete;
  RouterOf& operator=(const RouterOf&) = delete;

  void send(const R& m) {
    const unsigned to = ranges_.count() == 1 ? 0 : ranges_.shard_of(routing_key(m));
    out_[to].push_back(m);
    if (out_[to].size() == kMessagesABatch) flush(to);
  }
  // The memory one outbox holds when full (a sender holds one a shard).
  static constexpr std::size_t outbox_bytes() { return kMessagesABatch * sizeof(R); }
  // Every outbox delivered: before the sort, and before a sender is dropped.
  void flush() {
    for (unsigned to = 0; to < out_.size(); ++to) flush(to);
  }

 private:
  static constexpr std::size_t kMessagesABatch = 1u << 14;
  void flush(unsigned to) {
    if (!out_[to].empty()) transport_.deliver(to, out_[to].data(), out_[to].size());
    out_[to].clear();
  }

  const KeyRanges& ranges_;
  TransportOf<R>& transport_;
  std::vector<std::vector<R>> out_;
};
using Router = RouterOf<Msg>;

}  // namespace zermelo::retro
