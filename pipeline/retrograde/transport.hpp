// How a level's messages reach the shard that owns their target (docs/shards.md).
//
// Why an interface: the level loop makes messages and merges them shard by shard, but where a
// shard lives is not its business. In one process a shard's inbox is a sorter beside the others
// (Inboxes); across MPI ranks it will be another process, reached by sending it the batch. The
// senders see only deliver(), as girving/pentago's engine sees only its transport.
#pragma once
#include <cstddef>
#include <vector>

#include "pipeline/retrograde/key_ranges.hpp"
#include "pipeline/retrograde_records.hpp"

namespace zermelo::retro {

class Transport {
 public:
  virtual ~Transport() = default;
  // REQUIRED: hands `n` messages to shard `shard`'s inbox, whose key range holds all their
  // targets. Called from any sending thread at any time until the level's sort begins.
  virtual void deliver(unsigned shard, const Msg* msgs, std::size_t n) = 0;
};

// One sender's outboxes: messages batched by the shard that owns their target, so that the
// transport is called once a batch rather than once a message.
class Router {
 public:
  Router(const KeyRanges& ranges, Transport& transport)
      : ranges_(ranges), transport_(transport), out_(ranges.count()) {}
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  void send(Msg m) {
    const unsigned to = ranges_.count() == 1 ? 0 : ranges_.shard_of(m.key());
    out_[to].push_back(m);
    if (out_[to].size() == kMessagesABatch) flush(to);
  }
  // The memory one outbox holds when full (a sender holds one a shard).
  static constexpr std::size_t outbox_bytes() { return kMessagesABatch * sizeof(Msg); }
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
  Transport& transport_;
  std::vector<std::vector<Msg>> out_;
};

}  // namespace zermelo::retro
