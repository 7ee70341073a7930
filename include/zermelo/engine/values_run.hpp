// The values run: a solve's product, one (key, value) record a state, sorted by key.
//
// Why one place: the in-RAM and the out-of-core solvers must write it byte for byte alike (their
// digests are compared, and bench/ records them across versions), and every reader checks that a
// file is one. Its layout is therefore defined here once: the writers take values_run_options(),
// the readers ask is_values_run().
#pragma once
#include <string>
#include <vector>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {

// The plain record layout (no byte planes), so that the digest stays what earlier versions wrote.
inline RunOptions values_run_options() {
  RunOptions o;
  o.record_type = "values";
  o.record_size = sizeof(KeyValue);
  o.sort_key = "key asc";
  o.delta_u64_keys = true;
  return o;
}

// True if a run's header says it is a values run.
inline bool is_values_run(const RunOptions& o) {
  return o.record_type == "values" && o.record_size == sizeof(KeyValue);
}

// The values run's name inside a tier's job directory.
inline std::string values_run_name(const std::string& tier) { return "values-" + tier + ".run"; }

// A copy of the values run at `values_path` with the records `extra` (sorted by key, none of their
// keys in the run) merged in, written to `out_path` with the options above, as a solve would have
// written it: the digest of a solve whose state set held those states too. An error naming the
// key if one is already in the run or `extra` is not sorted.
RunInfo write_values_with(const std::string& values_path, const std::vector<KeyValue>& extra,
                          const std::string& out_path);

}  // namespace zermelo
