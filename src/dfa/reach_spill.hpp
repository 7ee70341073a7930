// The spill directory of a meet-in-the-middle solve (solve_by_reach with spill_dir), so that a
// solve longer than a working session can stop anywhere and go on with the same command.
//
// The forward search writes each ply's R(i) and Open(i) as set files (reach_i, open_i) once it has
// expanded them. The back-up then, after ply i, writes the set it hands up, Open(i) \ Won(i), as
// passed_i, and the table backed_up_i.run: the forward search's totals and the statistics of
// every ply backed up so far. Only then are reach_i, open_i, passed_{i+1} and backed_up_{i+1}.run
// removed. Every file is written to "<name>.tmp" and renamed when complete (set files and runs
// alike), so at any stop the lowest table's ply has its passed file, and the plies below it their
// forward files. A finished solve leaves the directory empty.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "zermelo/dfa/set.hpp"
#include "zermelo/dfa/solver.hpp"

namespace zermelo::dfa::detail {

// What the back-up of an earlier run left: the forward search's totals and the steps of the plies
// it backed up, deepest first; the lowest of them is `lowest`, whose passed set it also left.
struct BackedUp {
  std::size_t plies = 0;         // the forward search's R(0) ... R(plies-1)
  SetStats distinct;             // of the union of all plies
  std::vector<ReachStep> steps;  // plies plies-1 down to lowest
  std::size_t lowest() const { return steps.back().ply; }
};

class ReachSpill {
 public:
  ReachSpill(Manager& m, std::string dir);  // an empty dir: nothing is spilled
  bool on() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }

  bool has_forward(std::size_t ply) const;
  // Saves both sets and empties them (the memory is what the spill is for).
  void save_forward(std::size_t ply, Set& reach, Set& open) const;
  std::pair<Set, Set> load_forward(std::size_t ply) const;  // reach, open

  // nullopt if the back-up of an earlier run left nothing.
  std::optional<BackedUp> load_backed_up() const;
  Set load_passed(std::size_t ply) const;
  // After ply `step.ply` is backed up: its passed set and the table of `done` (deepest first,
  // ending with `step`), then the files no resume needs any more.
  void save_backed_up(const BackedUp& done, const Set& passed) const;
  // The solve is finished: every file it wrote goes.
  void clear() const;
  // The back-up's files alone (a solve that keeps every ply's sets cannot resume its back-up).
  void clear_backed_up() const;

 private:
  void remove_files(bool forward_too) const;
  std::string path(const char* what, std::size_t ply) const;
  std::string table_path(std::size_t ply) const;
  Manager& m_;
  std::string dir_;
};

}  // namespace zermelo::dfa::detail
