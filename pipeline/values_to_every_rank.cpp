// Rank 0's values run, chunk by chunk, to the ranks that lack it (values_to_every_rank.hpp).
#include "pipeline/values_to_every_rank.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "zermelo/engine/cluster.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace {

constexpr std::size_t kChunkBytes = 16u << 20;  // what a broadcast holds at once, on every rank

bool holds(const std::string& path, const std::string& digest_hex) {
  return std::filesystem::exists(path) && inspect_run(path).digest_hex() == digest_hex;
}

// Rank 0: the file, in chunks.
void send_file(Cluster& cluster, const std::string& path) {
  const std::uint64_t size = file_size(path);
  cluster.broadcast(std::to_string(size));
  SequentialReader in(path);
  std::string chunk;
  for (std::uint64_t sent = 0; sent < size; sent += chunk.size()) {
    chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkBytes, size - sent)));
    if (in.read(chunk.data(), chunk.size()) != chunk.size())
      throw std::runtime_error(path + ": shorter than its size while sent to the other ranks");
    cluster.broadcast(chunk);
  }
}

// Another rank: the chunks, kept if `keep` (written to a .part file, checked, then renamed, so
// that a kill never leaves a values run that looks complete).
void receive_file(Cluster& cluster, const std::string& path, const std::string& digest_hex,
                  bool keep) {
  const std::uint64_t size = std::stoull(cluster.broadcast({}));
  const std::string part = path + ".part";
  std::unique_ptr<SequentialWriter> out;
  if (keep) std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  if (keep) out = std::make_unique<SequentialWriter>(part);
  for (std::uint64_t got = 0; got < size;) {
    const std::string chunk = cluster.broadcast({});
    if (out) out->write(chunk.data(), chunk.size());
    got += chunk.size();
  }
  if (!out) return;
  out->finish();
  const RunInfo copy = verify_run(part);  // every block's checksum, then the digest
  if (copy.digest_hex() != digest_hex)
    throw std::runtime_error(part + ": the values run received from rank 0 has digest " +
                             copy.digest_hex() + ", not " + digest_hex);
  std::filesystem::rename(part, path);
  sync_directory_of(path);
}

}  // namespace

void copy_values_to_every_rank(Cluster& cluster, const std::string& path,
                               const std::string& digest_hex) {
  if (cluster.ranks() < 2) return;
  const bool lacks = cluster.rank() != 0 && !holds(path, digest_hex);
  if (cluster.sum(lacks ? 1 : 0) == 0) return;
  if (cluster.rank() == 0) return send_file(cluster, path);
  receive_file(cluster, path, digest_hex, lacks);
}

}  // namespace zermelo
