// The Cluster of an MPI job: the engine's shards spread over `mpirun -np N` ranks
// (docs/distributed.md).
//
// Why a layer of its own: the engine knows only the Cluster interface (zermelo/engine/
// cluster.hpp); MPI is an optional dependency, built only where it is found, and a program
// without it solves in one process as always. As in girving/pentago, the transport is kept
// apart from the engine: this file is the only one that names MPI.
#pragma once
#include <memory>
#include <thread>

#include "zermelo/engine/cluster.hpp"

namespace zermelo {

class MpiCluster final : public Cluster {
 public:
  // The job's cluster if this process was started by mpirun (MPI initialised, with threads);
  // null otherwise. A rank that dies makes mpirun stop the others (MPI's default error handler).
  static std::unique_ptr<MpiCluster> join_if_launched(int& argc, char**& argv);
  ~MpiCluster() override;  // MPI finalised
  // Ends the whole job at once, every rank: for an error on one rank, which the others would
  // otherwise wait for in their next exchange.
  [[noreturn]] void abort_job();

  unsigned rank() const override { return rank_; }
  unsigned ranks() const override { return ranks_; }
  std::uint64_t sum(std::uint64_t n) override;
  std::uint64_t min(std::uint64_t n) override;
  std::string broadcast(const std::string& text) override;
  void combine(std::uint64_t* words, std::size_t n, Bits op) override;
  std::vector<std::uint64_t> gather_all(const std::vector<std::uint64_t>& mine) override;
  void begin_exchange(Receive receive) override;
  void send(unsigned rank, unsigned shard, const void* data, std::size_t bytes) override;
  void end_exchange() override;
  void send_to_root(const void* data, std::size_t bytes) override;
  bool receive_from(unsigned from, std::vector<std::byte>& batch) override;

 private:
  MpiCluster();
  void receive_batches(Receive receive);  // the exchange's thread

  unsigned rank_ = 0, ranks_ = 1;
  std::thread receiver_;
};

}  // namespace zermelo
