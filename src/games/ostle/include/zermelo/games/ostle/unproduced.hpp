// The states "(board, nothing forbidden)" that no move can produce: Zermelo's exact reading
// listed one for every board until 2026-11-24, when it learnt that such a state needs a move into
// the board that leaves no undo (has_plain_producer). 2,149 of them, 139 in 4v5 and 2,010 in 5v5.
//
// Why list them: the solves made before the fix hold their values, and `ostle unproduced` puts
// them back into a solve made after it. No move leads to them, so no other value can differ: the
// values run with them put back must give the old solve's digest, which checks the whole tier
// against a database that no longer exists (bench/results/ostle.md keeps the old digests).
#pragma once
#include <vector>

#include "zermelo/games/ostle/index.hpp"

namespace zermelo::ostle {

// The keys (code 0) of the boards of the listed classes with no plain producer, in key order,
// walked on `threads` threads. Positions only: about 30 M a second a thread.
std::vector<Key> unproduced_plain_states(const std::vector<int>& classes, int threads);

}  // namespace zermelo::ostle
