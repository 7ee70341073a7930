// Counting Ostle's positions and states by class: positions, checkmate positions, possibly
// reachable states and non-trivial states (possibly reachable and not checkmate, the ones a
// retrograde solve values). Runs the index's per-range producer on all threads (OpenMP), one
// chunk of ranks at a time, so the same split serves run-file writers later.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/options.hpp"

namespace zermelo::ostle {

struct StateCounts {
  std::uint64_t positions = 0;
  std::uint64_t checkmates = 0;             // positions where the mover wins at once
  std::uint64_t states = 0;                 // possibly reachable states (position + forbidden move)
  std::uint64_t nontrivial_states = 0;      // possibly reachable, position not checkmate
  std::uint64_t forbidding_states = 0;      // of the states, those with a forbidden move
  std::uint64_t nontrivial_forbidding = 0;  // of the non-trivial states, those with one
  StateCounts& operator+=(const StateCounts& o) {
    positions += o.positions, checkmates += o.checkmates, states += o.states,
        nontrivial_states += o.nontrivial_states, forbidding_states += o.forbidding_states,
        nontrivial_forbidding += o.nontrivial_forbidding;
    return *this;
  }
};

// The counts of the ranks [lo, hi) of one class, on the calling thread, under a reading of the
// repetition rule (which states exist differs; positions and checkmates do not).
StateCounts count_range(int cls, std::uint64_t lo, std::uint64_t hi,
                        Reading reading = Reading::kExact);

// The counts of each listed class, split into chunks run on `threads` threads. `progress`, if
// set, is called from one thread at a time with the number of positions done so far.
std::vector<StateCounts> count_classes(const std::vector<int>& classes, int threads,
                                       const std::function<void(std::uint64_t)>& progress = {},
                                       Reading reading = Reading::kExact);

}  // namespace zermelo::ostle
