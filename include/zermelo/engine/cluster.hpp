// The processes a solve's shards are spread over (docs/shards.md, docs/distributed.md).
//
// Why an interface: the engine cuts a tier into shards and routes each level's messages to the
// shard that owns their target; where a shard lives is not its business. Without a Cluster one
// process holds every shard. Under MPI each rank holds some, and a Cluster, implemented beside
// the engine (src/mpi/, as girving/pentago keeps its transport apart from its engine), carries
// what must cross ranks: the level's message batches, a few sums, and the values that rank 0
// writes into the one values run. Every rank makes the same calls in the same order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace zermelo {

class Cluster {
 public:
  virtual ~Cluster() = default;

  // REQUIRED: this process's rank, and the ranks in all. Shard s of P lives on rank s·ranks/P.
  virtual unsigned rank() const = 0;
  virtual unsigned ranks() const = 0;

  // REQUIRED: `n` summed over every rank, returned on every rank.
  virtual std::uint64_t sum(std::uint64_t n) = 0;
  // REQUIRED: the least `n` of every rank, returned on every rank (a resumed job's ranks start
  // at the level each of them has).
  virtual std::uint64_t min(std::uint64_t n) = 0;
  // REQUIRED: rank 0's `text` on every rank (the other ranks' argument is ignored).
  virtual std::string broadcast(const std::string& text) = 0;
  // REQUIRED: `n` words combined bit by bit over every rank (or / and), in place, on every rank:
  // the filter of undecided groups, each rank setting and clearing the bits of its own shards.
  enum class Bits { kOr, kAnd };
  virtual void combine(std::uint64_t* words, std::size_t n, Bits op) = 0;
  // REQUIRED: every rank's `mine`, concatenated in rank order, on every rank. For a few words
  // (the filter's words a level changed); the caller bounds the total.
  virtual std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) = 0;

  // REQUIRED: a level's exchange of message batches. begin_exchange starts taking the batches
  // other ranks send, each handed to `receive` (on a thread of the Cluster's); send() hands one
  // batch (any thread, at any time until end_exchange) to shard `shard` on rank `rank`;
  // end_exchange returns once this rank sent its last batch and received every other rank's.
  using Receive = std::function<void(unsigned shard, const void* data, std::size_t bytes)>;
  virtual void begin_exchange(Receive receive) = 0;
  virtual void send(unsigned rank, unsigned shard, const void* data, std::size_t bytes) = 0;
  virtual void end_exchange() = 0;

  // REQUIRED: a stream of bytes from every other rank to rank 0, in batches (step 6's values).
  // send_to_root with 0 bytes ends this rank's stream; receive_from gives rank `from`'s next
  // batch, false once its stream has ended.
  virtual void send_to_root(const void* data, std::size_t bytes) = 0;
  virtual bool receive_from(unsigned from, std::vector<std::byte>& batch) = 0;
};

}  // namespace zermelo
