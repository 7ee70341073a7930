// Saving a DFA set to a file and loading it back, checksummed.
//
// This is the one function pair through which sets reach the disk, so that the format can later be
// switched to the project's run files (include/zermelo/io/run_file.hpp) without touching callers.
// The present format is a small self-contained file: header (magic, version, string length and
// alphabets, state count), the states layer by layer from the last layer up, each as one 32-bit
// child index per character, the root, and an XXH3-64 checksum of everything before it. It is
// written to "<path>.tmp" and renamed when complete. A loaded set is rebuilt through the manager's
// hash-consing, so it is canonical again.
#pragma once
#include <stdexcept>
#include <string>

#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa {

class SetFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns the number of bytes written.
std::uint64_t save_set(const Set& set, const std::string& path);
// The file's string length and alphabets must match the manager's. Throws SetFileError naming the
// file and what is wrong (bad magic, truncation, checksum mismatch, shape mismatch).
Set load_set(Manager& manager, const std::string& path);

}  // namespace zermelo::dfa
