// Solving a game with sets of positions instead of single positions (retrograde analysis recast
// as set algebra on DFAs, after Considine's "Compressed Game Solving").
//
// A game is described to this solver only through sets and changes: the universe P of positions,
// the terminal sets W0/L0 (won/lost for the player to move), and its moves, each a precondition
// set, a `change` (square relabelling) and a postcondition set. Then
//   forward(S) = U_m change_m(S ∩ Pre_m) ∩ Post_m        reverse(S) = U_m change_m⁻¹(S ∩ Post_m) ∩
//   Pre_m W(i+1) = W0 ∪ reverse(L(i))      L(i+1) = L0 ∪ (inverse(T) \ reverse(inverse(W(i))))
// and, for acyclic games, meet-in-the-middle: forward sets R(i) from the start (expanding only
// positions not already decided by the backward sets W(J), L(J)), then the values backed up from
// the deepest R to the start. Rules never appear here: they live in the game modules, which
// describe a game through the set-game interface (set_game.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "zermelo/dfa/set.hpp"
#include "zermelo/dfa/set_game.hpp"

namespace zermelo::dfa {

Set forward(const SetGame& g, const Set& s);
Set reverse(const SetGame& g, const Set& s);
// reverse(g, s) & within, restricted while it is built (much smaller intermediate DFAs).
Set reverse_within(const SetGame& g, const Set& s, const Set& within);

struct SetStats {
  std::uint64_t positions = 0;
  std::size_t states = 0;
  std::uint64_t bytes = 0;
  // canonical_digest (ext_dfa.hpp), if asked for (SetGame::digests): the same set solved out of
  // core has the same digest.
  std::optional<std::uint64_t> digest;
  double positions_per_byte() const {
    return bytes ? static_cast<double>(positions) / static_cast<double>(bytes) : 0.0;
  }
};
SetStats stats_of(const Set& s, bool digest = false);

// ---- Retrograde analysis over the whole universe.
struct RetrogradeStep {
  unsigned step = 0;
  SetStats won, lost;
  std::size_t table_states = 0;  // live states in the manager after the step
  double seconds = 0;            // since the start of the analysis
};
struct RetrogradeResult {
  Set won, lost;  // the fixpoint: every position decided within the step limit
  std::vector<RetrogradeStep> steps;
  bool converged = false;
};
// Stops at the fixpoint or after max_steps steps. progress is called after every step.
RetrogradeResult retrograde(const SetGame& g, unsigned max_steps,
                            const std::function<void(const RetrogradeStep&)>& progress = {});

// ---- Forward reachability and backing up (meet-in-the-middle).
struct ReachStep {
  unsigned ply = 0;
  SetStats reach;                 // R(ply)
  SetStats undecided;             // the part expanded further (not decided by the backward sets)
  SetStats won, lost;             // filled in by the backing-up pass
  std::size_t passed_states = 0;  // states of the set the back-up hands to the ply above
  double seconds = 0;
  bool resumed = false;  // R(ply) and Open(ply) were read from the spill files of an earlier run
  bool backup_resumed = false;  // so was all of this step: the earlier run had backed it up
};
struct ReachResult {
  std::vector<Set> reach, won, lost;  // per ply
  std::vector<ReachStep> steps;
  std::uint64_t distinct_positions = 0;  // |U R(i)|
  SetStats distinct;
  bool start_won = false;
  double forward_seconds = 0, backward_seconds = 0;
  std::size_t resumed_plies = 0;         // forward plies taken from an earlier run's spill files
  std::size_t resumed_backup_plies = 0;  // plies whose back-up an earlier run had finished
};
// known_won/known_lost: positions already decided (at least W0/L0, e.g. W(J)/L(J) from retrograde
// with max_steps = J). The game must be acyclic; max_plies guards against a game that is not.
// keep_sets = false drops each ply's sets once the back-up has passed it (only ply 0 and the
// statistics remain): the memory then holds the forward sets still to be backed up and little more.
// spill_dir non-empty: not even those; each ply's R(i) and Open(i) go to set files in spill_dir as
// soon as the forward search has expanded them, come back when the back-up reaches ply i and are
// deleted once it has passed it, so RAM holds one ply's sets and the lost set handed up.
// A solve with spill_dir resumes a stopped one (killed, or max_plies reached): the plies 0..K whose
// R and Open files are both there (each file is complete or absent) are read back instead of
// computed, and the forward search goes on from forward(Open(K)). The files must be this solve's:
// R(0) = {start} and Open(i) = R(i) \ known, or std::runtime_error names the directory. A stop in
// the back-up resumes there too: the plies backed up are taken from the files it left (their
// statistics, and the set handed up; src/dfa/reach_spill.hpp) and the back-up goes on below them.
// With keep_sets the won and lost sets of those plies are not on disk, so such a solve redoes them
// (the forward search from the last ply on disk, then the whole back-up).
ReachResult solve_by_reach(
    const SetGame& g, const Set& known_won, const Set& known_lost, unsigned max_plies,
    const std::function<void(const ReachStep&, bool backing_up)>& progress = {},
    bool keep_sets = true, const std::string& spill_dir = "");

// The compression exponent c fitted by least squares to states ≈ a·positions^c over the sets given
// (only sets with more than `min_positions` positions count). Returns 0 when fewer than two fit.
double fit_compression_exponent(const std::vector<SetStats>& sets,
                                std::uint64_t min_positions = 100);

}  // namespace zermelo::dfa
