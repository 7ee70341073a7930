// The generic `zermelo bfs`, callable by the commands that are its aliases (`ostle bfs`):
// breadth-first search from the start through the out-of-core pipeline.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace zermelo::cli {

struct BfsArgs {
  std::string game;
  std::vector<std::string> options;
  std::uint32_t max_ply = UINT32_MAX;
  bool all_states = false;
  bool expand_decided = false;
  bool keep_plies = false;
  unsigned shards = 1;  // with all_states (under mpirun: one a rank unless more are asked)
  std::vector<std::string> ply_of;
  std::string plot;        // an SVG or PNG file for the chart of new states per ply
  std::string plot_scale;  // its y axis: "" (log), "linear" or "log"
};

// Runs the search with its job in the work dir `dir` and prints what it found.
void run_bfs(const BfsArgs& a, const std::string& dir);

}  // namespace zermelo::cli
