// solve_by_reach (solver.hpp) with its sets out of core: the forward sets R(i), the open sets
// and the back-up run on external sets (ext_dfa.hpp) through ext_apply and ext_change_all, so
// that no set is ever whole in RAM.
//
// The in-RAM solve keeps every set in one hash-consed table, which caps the boards it can solve
// at the machine's memory (5x6 Breakthrough: 6.4 GiB). Here RAM holds the game's own small sets
// (universe, terminal and move filters, the known sets W(J)/L(J)) and the sorts' buffers; the
// ply sets live on disk. The result is the same sets, ply for ply: the canonical form makes the
// per-ply digests directly comparable with save_ext of the in-RAM solve's sets (tested).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/dfa/set_game.hpp"

namespace zermelo::dfa {

struct ExtSetStats {
  std::uint64_t states = 0;  // DFA states (ExtDfa::total_states)
  std::uint64_t digest = 0;  // ExtDfa::digest
};

struct ExtReachStep {
  unsigned ply = 0;
  ExtSetStats reach, undecided, won, lost;  // won and lost once the back-up has passed the ply
  double seconds = 0;                       // since the start of the solve
};

struct ExtReachResult {
  std::vector<ExtReachStep> steps;
  bool start_won = false;  // the player to move at the start wins
  double forward_seconds = 0, backward_seconds = 0;
};

// Meet in the middle as solve_by_reach(g, known_won, known_lost), with every ply's sets external
// under work_dir (created; each ply's files removed once the back-up has passed it). The moves'
// filters are taken from g (SetMove::pre / post) and their changes from SetMove::change.
ExtReachResult ext_solve_by_reach(
    const SetGame& g, const Set& known_won, const Set& known_lost, unsigned max_plies,
    const std::string& work_dir, const ExtOptions& options,
    const std::function<void(const ExtReachStep&, bool backing_up)>& progress = {});

}  // namespace zermelo::dfa
