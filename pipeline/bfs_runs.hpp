// The runs of the breadth-first search over all states: their names and their one layout.
//
// Why one file: every step writes or reads them (step 1, the plies, the join or gather at the
// end), and runs are joined block by block as stored, neither decoded nor encoded, which needs
// one layout: every run of the search is written with key_run's, which has not changed since the
// search was written, so a run of another layout is a bug, refused (append_stored). The
// block size may differ (BfsOptions::block_bytes changed between a kill and its resume): a
// stored block keeps its size wherever it is appended.
//
// Runs: U_d (unvisited-d.run) holds the states not reached at plies below d, F_d (frontier-d.run)
// the states first reached at ply d, both sorted keys.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::bfs {

inline RunOptions key_run(std::uint32_t block_bytes) {
  RunOptions o;
  o.record_type = "bfs.key";
  o.record_size = sizeof(StateKey);
  o.sort_key = "key asc";
  o.delta_u64_keys = true;
  o.shuffle_bytes = true;
  o.block_bytes = block_bytes;
  return o;
}

inline std::string unvisited_name(std::uint32_t d) {
  return "unvisited-" + std::to_string(d) + ".run";
}
inline std::string frontier_name(std::uint32_t d) {
  return "frontier-" + std::to_string(d) + ".run";
}

// The records of runs that are stretches of one run (the shards' of a step).
inline std::uint64_t records(const std::vector<RunInfo>& runs) {
  std::uint64_t n = 0;
  for (const RunInfo& r : runs) n += r.record_count;
  return n;
}

// A run whose blocks do not fit the writer's layout is refused: no version of the search writes
// such a run, and its blocks taken as stored would be read with the wrong transforms.
inline std::logic_error other_layout(const std::string& path) {
  return std::logic_error(path + ": a run of another layout than the search's (bfs_runs.hpp)");
}

// Run `path`'s blocks as stored, in order, each to fn(its BlockInfo, its stored bytes), the run
// first checked against `layout`: for a writer in another process, which cannot check it.
template <class Fn>
void for_each_stored_block(const std::string& path, const RunOptions& layout, Fn&& fn) {
  RunReader in(path);
  if (!blocks_fit(layout, in.info())) throw other_layout(path);
  std::vector<std::byte> stored;
  for (const BlockInfo& b : in.info().blocks) in.read_stored_block(stored), fn(b, stored);
}

// Run `path` appended to `out` block by block as stored, refused if its layout is not `out`'s.
inline void append_stored(const std::string& path, RunWriter& out) {
  RunReader in(path);
  if (!out.can_take_blocks_of(in.info())) throw other_layout(path);
  std::vector<std::byte> stored;
  for (const BlockInfo& b : in.info().blocks)
    in.read_stored_block(stored), out.append_stored_block(b, stored);
}

}  // namespace zermelo::bfs
