// The counts a solve reports of its values run (wins, losses, draws, states by plies, the
// longest decided state), taken as the run is written. Shared by the out-of-core and the in-RAM
// solvers, which must report the same numbers of the same run.
#pragma once
#include "zermelo/engine/retrograde.hpp"

namespace zermelo {

class ValuesTally {
 public:
  void add(StateKey key, Value v) {
    if (v.is_draw()) return void(++r_.draws);
    (v.is_win() ? r_.wins : r_.losses)++;
    r_.by_plies[v.plies()]++;
    // The first key of the most plies (a key of 0 gives way to a later one of as many).
    if (v.plies() > r_.longest || (v.plies() == r_.longest && r_.longest_key == 0))
      r_.longest = v.plies(), r_.longest_key = key;
  }
  // The tally of values that all come after those added so far in key order (the next MPI
  // rank's): the same as adding them one by one.
  void add_later(const SolveResult& later) {
    r_.wins += later.wins, r_.losses += later.losses, r_.draws += later.draws;
    for (const auto& [plies, n] : later.by_plies) r_.by_plies[plies] += n;
    if (later.wins + later.losses > 0 &&
        (later.longest > r_.longest || (later.longest == r_.longest && r_.longest_key == 0)))
      r_.longest = later.longest, r_.longest_key = later.longest_key;
  }
  // The counts as a result (states, wins, losses, draws, by_plies, longest, longest_key).
  SolveResult result() const {
    SolveResult r = r_;
    r.states = r.wins + r.losses + r.draws;
    return r;
  }

 private:
  SolveResult r_;
};

}  // namespace zermelo
