// Step 1's one pass: states walked into a sorted, unique run of their keys.
//
// Why a header: the walk differs (the tier's whole enumeration in one process; a rank's share of
// it under MPI, enumerate_ranks.cpp), the pass after it does not: sort the keys (or take them as
// they come from a game that enumerates in key order, the order checked), refuse duplicates, and
// stop at --max-states.
#pragma once
#include <functional>
#include <string>

#include "pipeline/retrograde/state.hpp"

namespace zermelo::retro {

using EmitKey = std::function<void(StateKey)>;
// Calls its argument once for every state it walks.
using StateWalk = std::function<void(const EmitKey&)>;

// The keys `walk` emits, sorted and unique, as the run `path`. `in_key_order`: the walk emits
// them increasing, and they are written as they come.
RunInfo walk_to_sorted_run(const SolveState& s, const StateWalk& walk, bool in_key_order,
                           const std::string& path);

// The keys of `keys`, sorted (sort() called), written to the run `path`; a duplicate refused.
RunInfo write_unique_keys(const SolveState& s, ExternalSorter<std::uint64_t>& keys,
                          const std::string& path);

}  // namespace zermelo::retro
