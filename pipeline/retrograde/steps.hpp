// The steps of an out-of-core solve, in the order solve.cpp runs them, one file a step.
//
// Step 0 answers a finished solve from its manifest. Steps 1-3 are the initial scan, once:
// enumerate the tier's states, scan each (values the rules fix, children counted, work scheduled
// for later levels) in checkpointed chunks, and join the chunks' parts into S_0. Step 4 finds
// where the levels resume. Step 5 runs level after level (send the frontier's messages, sort
// them, merge them into the undecided states) until nothing is left to decide. Step 6 merges the
// decided runs and the draws into the values run; step 7 drops every working file. With shards
// (docs/shards.md) step 3 cuts its outputs by key range and every step of a level runs on all
// shards at once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "pipeline/retrograde/state.hpp"
#include "pipeline/retrograde/transport.hpp"
#include "pipeline/values_tally.hpp"

namespace zermelo::retro {

// The initial scan's checkpoints: chunks of the sorted keys, each a manifest stage of its own.
struct ScanChunks {
  std::uint64_t states = 0, per_chunk = 1;
  std::size_t count = 1;
  std::uint64_t begin(std::size_t i) const { return i * per_chunk; }
  std::uint64_t end(std::size_t i) const { return std::min(states, begin(i) + per_chunk); }
};

// Step 0. The result recorded with stage "final", if the solve finished before.
bool finished_before(SolveState& s);
SolveResult recorded_result(SolveState& s, bool resumed);

// Step 1 (enumerate.cpp). keys.run: the tier's states, sorted and unique, if `needed` (not
// recorded yet). Under MPI every rank calls it, needed or not: with un-moves a rank's keys.run
// holds only its own shards' keys, which the other ranks' shares of the enumeration send it
// (enumerate_own_keys, enumerate_ranks.cpp), so a rank past step 1 still sends its share.
void enumerate_states(SolveState& s, bool needed);
void enumerate_own_keys(SolveState& s, bool needed);

// Step 2 (initial_scan.cpp). Every state scanned once, chunk by chunk.
ScanChunks scan_states(SolveState& s);

// Step 3 (join_scan.cpp). The chunks' parts joined: S_0, scheduled.run, edges.run.
void join_scan_parts(SolveState& s, const ScanChunks& chunks);

// Step 4 (resume.cpp). True if the initial scan's outputs are there to build on.
bool scan_done(const SolveState& s);
// The first level to run: after the last one recorded (its facts restored).
std::uint32_t first_level_to_run(SolveState& s);

// Step 5 (level.cpp). Level d: S_d -> S_{d+1}, F_{d+1}. Returns the states it decided.
std::uint64_t solve_level(SolveState& s, std::uint32_t d);
// 5a (send.cpp): level d's messages, every shard's, each delivered to the shard that owns its
// target; returns the frontier's size, all shards'.
std::uint64_t send_messages(SolveState& s, std::uint32_t d, Transport& transport,
                            std::uint64_t& filtered);
// 5b (merge.cpp): shard `shard`'s sorted messages merged into its S_d (`in`), giving its S_{d+1}
// and F_{d+1}.
struct MergeCounts {
  std::uint64_t decided = 0;
  std::uint64_t copied = 0;     // undecided states passed on in blocks no message reached
  std::uint64_t delivered = 0;  // messages that reached an undecided state
  MergeCounts& operator+=(const MergeCounts& o) {
    decided += o.decided, copied += o.copied, delivered += o.delivered;
    return *this;
  }
};
MergeCounts merge_messages(SolveState& s, unsigned shard, std::uint32_t d,
                           ExternalSorter<Msg>& msgs, RunReader& in, RunWriter& out,
                           RunWriter& next_frontier);

// Step 6 (values.cpp). The values run from the decided runs and the draws S_levels; "final".
void write_values(SolveState& s, std::uint32_t levels);
// 6a: this process's shards' values, decided and drawn, each passed to `emit` in key order.
void merge_values(const SolveState& s, std::uint32_t levels,
                  const std::function<void(const KeyValue&)>& emit);
// 6b (values_ranks.cpp), under MPI: each rank's values written as the blocks that start in its
// range, which rank 0 joins into the values run (its RunInfo, on rank 0 only); `tally` counts
// every rank's values on rank 0.
std::vector<RunInfo> write_values_across_ranks(SolveState& s, std::uint32_t levels,
                                               ValuesTally& tally);
// 6c: stage "final"; under MPI rank 0's facts, with the values run's digest, on every rank.
void record_final(SolveState& s, const std::vector<RunInfo>& outputs, nlohmann::json facts);

// Step 7 (layout.cpp). Once "final" is recorded only the values run and the manifest are kept.
void drop_working_runs(SolveState& s);

}  // namespace zermelo::retro
