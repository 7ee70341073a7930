// Union, intersection and difference of external sets (ext_dfa.hpp) out of core.
//
// The in-RAM operations (set.hpp) recurse over pairs of states with random access to one table;
// these run as sequential passes over sorted streams instead, after Adiar's time-forward
// processing (Soelvsten et al.): a top-down pass, layer by layer, turns the requests for pairs of
// states (sorted) into the states of the product and its arcs into the next layer's requests,
// reading each input's layer in order; a bottom-up reduce then numbers the product's states
// canonically, dropping the dead ones and merging the equal ones. Every table larger than a few
// buffers is an external sort (sort/external_sort.hpp) under the memory budget. The result is
// the canonical form save_ext gives the same set: equal digests. Algorithm: docs/dfa.md.
#pragma once
#include <cstdint>
#include <string>

#include "zermelo/dfa/ext_dfa.hpp"

namespace zermelo::dfa {

enum class ExtOp { kUnion, kIntersect, kMinus };

struct ExtOptions {
  std::string scratch_dir;                    // intermediate runs (created, removed when done)
  std::uint64_t memory_bytes = 256ull << 20;  // for all the sorts of a pass together
  // fsync the scratch runs (the product's arcs, the sorts' spills) as well as the result's
  // layers. Off by default: they are never a result and a crash redoes the pass; on only to
  // measure what the syncs cost.
  bool sync_scratch = false;
  // fsync the result's layers and header. Off only where the result is itself scratch of a
  // larger computation that no resume reads (the external solver's ply sets).
  bool durable_result = true;
  // Threads of a pass's sorts: with 2, a buffer that fills is sorted as two halves at once (the
  // sorts are half a pass's CPU). Both halves live in the one buffer: no memory beyond the budget.
  unsigned threads = 1;
};

// What a pass did, for the benchmarks and tests: the product's states before the reduce, the
// result's, and the runs its sorts spilled to disk (0: everything stayed in RAM).
struct ExtStats {
  std::uint64_t product_states = 0;
  std::uint64_t result_states = 0;
  std::uint64_t spilled_runs = 0;
};

// op(a, b) written as a canonical external set in out_dir (a and b are left as they are).
ExtDfa ext_apply(ExtOp op, const ExtDfa& a, const ExtDfa& b, const std::string& out_dir,
                 const ExtOptions& options, ExtStats* stats = nullptr);

}  // namespace zermelo::dfa
