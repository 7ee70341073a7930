// The Cluster of an MPI job (zermelo/mpi/mpi_cluster.hpp).
//
// A level's exchange: every rank's senders MPI_Send each batch (tag: the shard) to the rank
// that holds its shard, from any thread, while a thread of the receiving rank takes whatever
// arrives into that shard's inbox, so no rank ever holds more than a batch a sender in flight.
// When a rank has sent its last batch it sends every other rank an empty message, tag kEnd; its
// receiver stops once it has one from every other rank. Messages from one rank arrive in the
// order sent, so the end comes after that rank's batches. A barrier closes the exchange, so that
// no rank's next exchange begins while a receiver of this one still runs.
#include "zermelo/mpi/mpi_cluster.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace zermelo {
namespace {

constexpr int kEnd = 1, kStream = 2, kFirstShardTag = 16;

// The streams to rank 0 (send_to_root, receive_from) travel in a communicator of their own: the
// exchange's receiving thread takes any tag from any rank, and a rank that has ended its
// exchange may begin its stream to rank 0 while rank 0's thread still waits for a slower rank's
// end; in one communicator that thread took the stream's first message as a batch (seen as "a
// rank sent no tally" in CI, under load). One MPI job a process, so one such communicator.
MPI_Comm stream_comm = MPI_COMM_NULL;

int bytes_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("an MPI message of more than 2 GiB");
  return static_cast<int>(bytes);
}

int words_count(std::uint64_t words) {
  if (words > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::length_error("an MPI message of more than 2^31 words");
  return static_cast<int>(words);
}

// Waits for a message as a sleeper, not a spinner: OpenMPI's blocking probe polls a core until
// a message comes, and a receiving thread waits through a whole level beside the rank's own
// workers (on a machine with a core a rank, it took a worker's core). A probe that finds
// nothing sleeps, up to a millisecond, against batches that take far longer to make.
void probe_politely(MPI_Comm comm, int source, int tag, MPI_Message& message, MPI_Status& status) {
  std::chrono::microseconds nap{1};
  for (int found = 0;;) {
    MPI_Improbe(source, tag, comm, &found, &message, &status);
    if (found) return;
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds{1000});
  }
}

// Waits for a non-blocking operation as a sleeper too: a rank that reaches a sum or a broadcast
// first (its share of step 1 walked, its shards merged) would otherwise spin in the blocking
// collective, a core's worth of CPU taken from the ranks still working beside it.
void wait_politely(MPI_Request& request) {
  std::chrono::microseconds nap{1};
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds{1000});
  }
}

// The next message of `comm` from `source` (any: MPI_ANY_SOURCE) with `tag` (any: MPI_ANY_TAG),
// whole.
MPI_Status receive_any(MPI_Comm comm, int source, int tag, std::vector<std::byte>& into) {
  MPI_Message message;
  MPI_Status status;
  probe_politely(comm, source, tag, message, status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  into.resize(static_cast<std::size_t>(count));
  MPI_Mrecv(into.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
  return status;
}

}  // namespace

std::unique_ptr<MpiCluster> MpiCluster::join_if_launched(int& argc, char**& argv) {
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE")) return nullptr;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    std::cerr << "zermelo: error: this MPI gives no MPI_THREAD_MULTIPLE\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return std::unique_ptr<MpiCluster>(new MpiCluster());
}

MpiCluster::MpiCluster() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  rank_ = static_cast<unsigned>(rank), ranks_ = static_cast<unsigned>(size);
  MPI_Comm_dup(MPI_COMM_WORLD, &stream_comm);
}

MpiCluster::~MpiCluster() {
  if (receiver_.joinable()) abort_job();  // an exchange left half done: the others wait on it
  MPI_Comm_free(&stream_comm);
  MPI_Finalize();
}

void MpiCluster::abort_job() { MPI_Abort(MPI_COMM_WORLD, 1), std::abort(); }

std::uint64_t MpiCluster::sum(std::uint64_t n) {
  std::uint64_t total = 0;
  MPI_Request request;
  MPI_Iallreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &request);
  wait_politely(request);
  return total;
}

std::uint64_t MpiCluster::min(std::uint64_t n) {
  std::uint64_t least = 0;
  MPI_Request request;
  MPI_Iallreduce(&n, &least, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &request);
  wait_politely(request);
  return least;
}

std::string MpiCluster::broadcast(const std::string& text) {
  std::uint64_t size = text.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
  wait_politely(request);
  std::string out = rank_ == 0 ? text : std::string(size, '\0');
  MPI_Ibcast(out.data(), bytes_count(size), MPI_CHAR, 0, MPI_COMM_WORLD, &request);
  wait_politely(request);
  return out;
}

void MpiCluster::combine(std::uint64_t* words, std::size_t n, Bits op) {
  // In pieces of 8 MiB: a reduction may hold a copy of what it combines, outside --memory.
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  for (std::size_t at = 0; at < n; at += kPiece) {
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, words + at, static_cast<int>(std::min(kPiece, n - at)),
                   MPI_UINT64_T, op == Bits::kOr ? MPI_BOR : MPI_BAND, MPI_COMM_WORLD, &request);
    wait_politely(request);
  }
}

std::vector<std::uint64_t> MpiCluster::gather_all(const std::vector<std::uint64_t>& mine) {
  const std::uint64_t n = mine.size();
  std::vector<std::uint64_t> counts(ranks_);
  MPI_Request request;
  MPI_Iallgather(&n, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD, &request);
  wait_politely(request);
  std::vector<int> sizes(ranks_), offsets(ranks_);
  std::uint64_t total = 0;
  for (unsigned r = 0; r < ranks_; ++r) {
    offsets[r] = words_count(total);
    sizes[r] = words_count(counts[r]);
    total += counts[r];
  }
  std::vector<std::uint64_t> all(total);
  MPI_Iallgatherv(mine.data(), words_count(n), MPI_UINT64_T, all.data(), sizes.data(),
                  offsets.data(), MPI_UINT64_T, MPI_COMM_WORLD, &request);
  wait_politely(request);
  return all;
}

void MpiCluster::begin_exchange(Receive receive) {
  if (ranks_ > 1) receiver_ = std::thread([this, receive] { receive_batches(receive); });
}

void MpiCluster::receive_batches(Receive receive) {
  std::vector<std::byte> batch;
  for (unsigned ended = 0; ended + 1 < ranks_;) {
    const MPI_Status status = receive_any(MPI_COMM_WORLD, MPI_ANY_SOURCE, MPI_ANY_TAG, batch);
    if (status.MPI_TAG == kEnd)
      ++ended;
    else
      receive(static_cast<unsigned>(status.MPI_TAG - kFirstShardTag), batch.data(), batch.size());
  }
}

void MpiCluster::send(unsigned rank, unsigned shard, const void* data, std::size_t bytes) {
  MPI_Request request;  // a batch waits for the receiver's polite probe: sleep meanwhile
  MPI_Isend(data, bytes_count(bytes), MPI_BYTE, static_cast<int>(rank),
            kFirstShardTag + static_cast<int>(shard), MPI_COMM_WORLD, &request);
  wait_politely(request);
}

void MpiCluster::end_exchange() {
  for (unsigned to = 0; to < ranks_; ++to)
    if (to != rank_) MPI_Send(nullptr, 0, MPI_BYTE, static_cast<int>(to), kEnd, MPI_COMM_WORLD);
  if (receiver_.joinable()) receiver_.join();
  // No rank begins its next exchange before every rank's receiver has stopped. A receiver ends
  // once it has every other rank's end; on three ranks, a rank that has both could start its next
  // exchange while another's receiver still waits for the third rank's end, and that receiver
  // would take the new exchange's first batches as the old one's (the BFS's shares, then its
  // ply 0, follow one another with nothing between them that every rank joins). One barrier an
  // exchange, against batches of megabytes.
  if (ranks_ > 1) {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    wait_politely(request);
  }
}

void MpiCluster::send_to_root(const void* data, std::size_t bytes) {
  MPI_Request request;
  MPI_Isend(data, bytes_count(bytes), MPI_BYTE, 0, kStream, stream_comm, &request);
  wait_politely(request);
}

bool MpiCluster::receive_from(unsigned from, std::vector<std::byte>& batch) {
  receive_any(stream_comm, static_cast<int>(from), kStream, batch);
  return !batch.empty();
}

}  // namespace zermelo
