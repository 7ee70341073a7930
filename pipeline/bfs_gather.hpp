// The end of the breadth-first search over all states across MPI ranks: every rank's shards'
// runs joined into rank 0's run.
//
// Why: a single process ends with its shards' runs joined in the job directory (Shards::join),
// and the ranks must end the same way, so that rank 0's runs, its result and its manifest are the
// single process's whatever the ranks (docs/distributed.md). Each rank holds consecutive shards,
// so its runs, rank after rank, are in key order: their blocks cross as stored, neither decoded
// nor encoded, and the joined run is the one a single process joins from the same shards. Every
// rank writes its runs with the one layout of bfs_runs.hpp, and each checks its own runs against
// rank 0's writer before their blocks cross (a run of another layout stops the job).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/bfs_shards.hpp"

namespace zermelo::bfs {

// A run joined on rank 0, and how many of its records each rank held.
struct Gathered {
  RunInfo run;
  std::vector<std::uint64_t> by_rank;
};

// The local shards' runs `name`, every rank's, joined in key order into rank 0's run `out`,
// written with `options`; other ranks keep their runs and get an empty Gathered.
Gathered gather_to_root(const Shards& shards, const std::string& name, const std::string& out,
                        const RunOptions& options);

}  // namespace zermelo::bfs
