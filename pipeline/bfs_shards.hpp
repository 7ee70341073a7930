// The shards of the breadth-first search over all states (docs/shards.md): the key space cut
// into the solve's balanced contiguous ranges (retro::KeyRanges), each shard keeping its stretch
// of the unvisited and frontier runs in a folder of its own, and the shards this process holds.
//
// Why: a ply's expansions, sort and merge then run shard by shard at once, on the threads of one
// process or on MPI ranks. A shard's runs are the stretch of the unsharded search's runs in its
// key range, so joined in shard order they are those runs; with one shard the folder is the job
// directory itself and the runs keep the unsharded search's names.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pipeline/bfs_runs.hpp"
#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/key_ranges.hpp"
#include "zermelo/engine/cluster.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::bfs {

class Shards {
 public:
  // `shards` shards (at least one) of the search in `job_dir`, spread over `cluster`'s ranks.
  Shards(const std::string& job_dir, unsigned shards, Cluster* cluster);

  unsigned count() const { return count_; }
  unsigned local_count() const { return static_cast<unsigned>(ids_.size()); }
  const std::vector<unsigned>& ids() const { return ids_; }  // this process's, ascending
  Cluster* cluster() const { return cluster_; }
  bool clustered() const { return cluster_ && cluster_->ranks() > 1; }

  const retro::KeyRanges& ranges() const { return ranges_; }
  void set_ranges(retro::KeyRanges ranges) { ranges_ = std::move(ranges); }
  // The ranges a stage recorded (its facts' "first_keys").
  void read_ranges(const nlohmann::json& facts) {
    ranges_ = retro::KeyRanges(facts["first_keys"].get<std::vector<std::uint64_t>>());
  }
  // The shard that owns `key`'s local index, or local_count() if another process holds it.
  unsigned local_of(StateKey key) const;

  // Run `name` of local shard `local` (its folder is made if needed).
  std::string path(unsigned local, const std::string& name) const;
  std::vector<std::string> paths(const std::string& name) const;  // every local shard's

  // The sorted run `whole` cut by the ranges into run `name` of every local shard.
  std::vector<RunInfo> split(const std::string& whole, const std::string& name,
                             const RunOptions& options) const;
  // The local shards' runs `name` joined in key order into `out` (the shards' runs are kept).
  RunInfo join(const std::string& name, const std::string& out, const RunOptions& options) const;
  // The local shards' runs `name` appended to `out` in key order, their blocks as stored
  // (bfs_runs.hpp: append_stored); `join` and rank 0's gather (bfs_gather.hpp).
  void append_to(const std::string& name, RunWriter& out) const {
    for (const std::string& p : paths(name)) append_stored(p, out);
  }
  // The same blocks, each to fn(its BlockInfo, its stored bytes), every run checked against
  // `layout`, the writer's on rank 0: the other ranks' gather.
  template <class Fn>
  void for_each_stored_block(const std::string& name, const RunOptions& layout, Fn&& fn) const {
    for (const std::string& p : paths(name)) bfs::for_each_stored_block(p, layout, fn);
  }

  // fn(local index) for every local shard, `threads` at a time; one shard runs on this thread,
  // so that its own parallel loops keep every thread.
  template <class Fn>
  void for_each(unsigned threads, Fn&& fn) const {
    if (local_count() == 1) return fn(0u);
    parallel_for<char>(threads, local_count(), 1,
                       [&](std::size_t, std::size_t i, char&) { fn(static_cast<unsigned>(i)); });
  }
  // The threads each shard's own work may use while the shards run at once.
  unsigned threads_each(unsigned threads) const {
    return local_count() == 1 ? threads : std::max(1u, threads / local_count());
  }

  // `n` summed over the processes, and the least `n` of them (n itself in one process).
  std::uint64_t total(std::uint64_t n) const { return clustered() ? cluster_->sum(n) : n; }
  std::uint64_t least(std::uint64_t n) const { return clustered() ? cluster_->min(n) : n; }

 private:
  std::string job_dir_;
  unsigned count_;
  Cluster* cluster_;
  std::vector<unsigned> ids_;
  retro::KeyRanges ranges_;
};

}  // namespace zermelo::bfs
