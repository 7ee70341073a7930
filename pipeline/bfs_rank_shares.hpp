// Step 1 of the breadth-first search over all states across MPI ranks (docs/distributed.md):
// each rank ends with its own shards' stretches of U_0, and no rank walks or holds every state.
//
// Why a file of its own: in one process step 1 is the enumeration cut by key (Shards::split);
// across ranks it is a protocol of its own, of three steps:
// 1. The rank's share, sorted: of each tier, a contiguous share of its enumeration's parts
//    (every N-th state of a tier without parts), walked on all the rank's threads.
// 2. The shards' first keys, the single process's: the key of global record i is found by
//    bisecting the key space over the ranks' summed counts (retro::select_key_ranges).
// 3. The shares exchanged by key range, through the plies' own transport, into one sorter a
//    shard; each shard's sorted keys are its U_0, checked against its count.
// The exchange needs every rank: a rank that recorded "shards" while another did not (a kill
// between their records) walks and sends its share again, and drops what it receives.
#pragma once
#include <vector>

#include "pipeline/bfs_enumerate.hpp"
#include "pipeline/bfs_shards.hpp"
#include "zermelo/pipeline/manifest.hpp"

namespace zermelo::bfs {

// Stage "shards" across the ranks of `shards`: its ranges set, its local shards' U_0 written
// (recorded unless done before). The shards' inboxes sort with `inboxes`, `threads` at a time.
void enumerate_own_shards(const StatesEnumeration& enumeration, Manifest& manifest, Shards& shards,
                          const std::vector<SortOptions>& inboxes, unsigned threads);

}  // namespace zermelo::bfs
