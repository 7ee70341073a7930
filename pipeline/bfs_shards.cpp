// The shards of the breadth-first search over all states (bfs_shards.hpp).
#include "pipeline/bfs_shards.hpp"

#include <algorithm>
#include <filesystem>

namespace zermelo::bfs {

Shards::Shards(const std::string& job_dir, unsigned shards, Cluster* cluster)
    : job_dir_(job_dir),
      count_(std::max(1u, shards)),
      cluster_(cluster),
      ids_(retro::shards_of_rank(count_, cluster ? cluster->rank() : 0,
                                 cluster ? cluster->ranks() : 1)) {}

unsigned Shards::local_of(StateKey key) const {
  if (count_ == 1) return 0;
  const unsigned shard = ranges_.shard_of(key);
  const auto at = std::lower_bound(ids_.begin(), ids_.end(), shard);
  return static_cast<unsigned>(at != ids_.end() && *at == shard ? at - ids_.begin() : ids_.size());
}

std::string Shards::path(unsigned local, const std::string& name) const {
  if (count_ == 1) return job_dir_ + "/" + name;
  const std::string folder = job_dir_ + "/shard-" + std::to_string(ids_[local]);
  std::filesystem::create_directories(folder);
  return folder + "/" + name;
}

std::vector<std::string> Shards::paths(const std::string& name) const {
  std::vector<std::string> out;
  for (unsigned local = 0; local < local_count(); ++local) out.push_back(path(local, name));
  return out;
}

std::vector<RunInfo> Shards::split(const std::string& whole, const std::string& name,
                                   const RunOptions& options) const {
  std::vector<std::unique_ptr<RunWriter>> out;
  for (const std::string& p : paths(name)) out.push_back(std::make_unique<RunWriter>(p, options));
  RunReader in(whole, IoOptions{}, /*decode_ahead=*/true);
  const void* span;
  while (const std::size_t n = in.next_span(&span, 1u << 16)) {
    const auto* keys = static_cast<const StateKey*>(span);
    for (std::size_t i = 0; i < n;) {  // each shard's stretch of the span appended at once
      const unsigned to = local_of(keys[i]);
      std::size_t j = i + 1;
      while (j < n && local_of(keys[j]) == to) ++j;
      if (to < out.size()) out[to]->append_many(keys + i, j - i);
      i = j;
    }
  }
  std::vector<RunInfo> infos;
  for (auto& w : out) infos.push_back(w->finish());
  return infos;
}

RunInfo Shards::join(const std::string& name, const std::string& out,
                     const RunOptions& options) const {
  namespace fs = std::filesystem;
  if (count_ == 1 && fs::path(path(0, name)).lexically_normal() == fs::path(out).lexically_normal())
    return inspect_run(out);  // one shard's run is the job directory's
  RunWriter joined(out, options);
  append_to(name, joined);
  return joined.finish();
}

}  // namespace zermelo::bfs
