// solve_by_reach (solver.hpp) with its sets out of core: the forward sets R(i), the open sets
// and the back-up run on external sets (ext_dfa.hpp) through ext_apply and ext_change_all, so
// that no set is ever whole in RAM.
//
// The in-RAM solve keeps every set in one hash-consed table, which caps the boards it can solve
// at the machine's memory (5x6 Breakthrough: 6.4 GiB). Here RAM holds the game's own small sets
// (universe, terminal and move filters, the known sets W(J)/L(J)) and the sorts' buffers; the
// ply sets live on disk. The result is the same sets, ply for ply: the canonical form makes the
// per-ply digests directly comparable with save_ext of the in-RAM solve's sets (tested).
//
// Such a solve outlasts a working session, so it is resumable: each finished ply's sets are
// written durably and recorded in DIR/manifest.json (ext_solve_manifest.hpp) with the job's
// identity, and the same call on the same directory goes on from the last recorded ply.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/dfa/set_game.hpp"

namespace zermelo::dfa {

struct ExtSetStats {
  std::uint64_t states = 0;     // DFA states (ExtDfa::total_states)
  std::uint64_t digest = 0;     // ExtDfa::digest
  std::uint64_t bytes = 0;      // one 32-bit edge a transition, as Set::bytes
  bool counted = false;         // positions known (ext_count: the sort budget held the counts)
  std::uint64_t positions = 0;  // if counted
};

struct ExtReachStep {
  unsigned ply = 0;
  ExtSetStats reach, undecided, won, lost;  // won and lost once the back-up has passed the ply
  std::uint64_t passed_states = 0;          // of Open(i) \ Won(i), the set handed up
  double seconds = 0;           // since the start of the solve, over all the runs that made it
  bool resumed = false;         // R(ply) and Open(ply) were recorded by an earlier run
  bool backup_resumed = false;  // and so was the ply's back-up
};

struct ExtReachResult {
  std::vector<ExtReachStep> steps;
  bool start_won = false;  // the player to move at the start wins
  double forward_seconds = 0, backward_seconds = 0;
  std::size_t resumed_plies = 0, resumed_backup_plies = 0;  // taken from an earlier run
};

// A set's and a ply's figures as the in-RAM solve's JSON has them (set_game_solve.cpp: ply,
// reach, open, won, lost, passed_states, seconds, resumed, backup_resumed; positions null where
// not counted), with each set's digest.
nlohmann::json ext_stats_json(const ExtSetStats& s);
nlohmann::json ext_step_json(const ExtReachStep& s);

// Meet in the middle as solve_by_reach(g, known_won, known_lost), with every ply's sets external
// under work_dir/sets (each ply's files removed once the back-up has passed it, all of them at
// the end), the sorts' scratch in work_dir/scratch, the record in work_dir/manifest.json (kept:
// the same call on a finished directory gives the recorded result at once). `identity` names the
// job (the command's words); with the digests of the start and the known sets it must match the
// record's, else std::runtime_error. The moves' filters are taken from g (SetMove::pre / post)
// and their changes from SetMove::change.
ExtReachResult ext_solve_by_reach(
    const SetGame& g, const Set& known_won, const Set& known_lost, unsigned max_plies,
    const std::string& work_dir, const std::string& identity, const ExtOptions& options,
    const std::function<void(const ExtReachStep&, bool backing_up)>& progress = {});

}  // namespace zermelo::dfa
