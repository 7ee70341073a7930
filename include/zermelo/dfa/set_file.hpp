// Saving a DFA set to a file and loading it back, checksummed.
//
// This is the one function pair through which sets reach the disk. A set file is one of the
// project's run files (include/zermelo/io/run_file.hpp): zstd blocks each with an XXH3 checksum,
// a "complete" flag, written to "<path>.tmp" and renamed when finished, so a crash or a flipped
// bit never passes for a set. Records are 32-bit words, record type "zermelo.dfa_set": a format
// version, the string length and the alphabets, the number of states of each layer, then the states
// layer by layer from the last layer up, each as one child index per character (0 dead, 1 accept,
// 2.. the states written before it), and last the root. A loaded set is rebuilt through the
// manager's hash-consing, so it is canonical again.
#pragma once
#include <cstdint>
#include <string>

#include "zermelo/dfa/set.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::dfa {

// A set file that cannot be read as a set of this manager's strings. It is a RunFileError, so
// callers handling any bad run file catch it too.
class SetFileError : public RunFileError {
 public:
  using RunFileError::RunFileError;
};

// Returns the number of bytes written.
std::uint64_t save_set(const Set& set, const std::string& path);
// The file's string length and alphabets must match the manager's. Throws SetFileError naming the
// file and what is wrong (not a run file, incomplete or truncated, checksum mismatch, not a set
// file, shape mismatch, malformed states).
Set load_set(Manager& manager, const std::string& path);

}  // namespace zermelo::dfa
