// Checking a finished job by streaming, as `zermelo verify DIR` does: nothing in a job directory
// is taken on trust. The manifest must match its own checksum and list at least one stage and one
// output; every output it lists is read whole (every block's checksum) and must have the recorded
// size, record count, digest and record type; a tiered job's tiers, each a job directory below
// it, are checked the same way. The working folders of MPI ranks r > 0 (rank-<r>) are not: the
// job's outputs are rank 0's, in the job directory.
#pragma once
#include <string>
#include <vector>

#include "zermelo/io/run_file.hpp"

namespace zermelo {

struct VerifyReport {
  std::vector<RunInfo> ok;
  std::vector<std::string> problems;  // one line each, naming the file
};

// The whole tree under job_dir (its manifest, then every subdirectory holding a manifest but the
// ranks' working folders).
VerifyReport verify_job(const std::string& job_dir);

}  // namespace zermelo
