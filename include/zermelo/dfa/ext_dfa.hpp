// External DFA sets: a set's minimal layered DFA on disk, one run file a layer, in a canonical
// numbering.
//
// The in-RAM sets (set.hpp) keep every state in one hash-consed table, which must fit in memory.
// An external set is the same minimal DFA written layer by layer (string position by position),
// so that the set operations can run as sequential passes over sorted streams of arcs
// (ext_apply.hpp) under a memory budget. The numbering is canonical: within a layer the states
// are ordered by their children's numbers, so equal sets give byte-equal layers and equal
// digests, whichever way (in RAM or out of core) they were computed. Byte layout: docs/dfa.md,
// "External sets".
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "zermelo/dfa/set.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::dfa {

// An external set that cannot be read: missing, incomplete, damaged or malformed. The message
// names the file and what is wrong.
class ExtDfaError : public RunFileError {
 public:
  using RunFileError::RunFileError;
};

// A finished external set, as its header describes it (open_ext checks the header against the
// layer files; the layers' contents are checked as they are read).
struct ExtDfa {
  std::string dir;
  std::vector<unsigned> alphabet;            // one entry a string position
  std::vector<std::uint64_t> states;         // states of each layer (0 .. L-1)
  std::vector<std::uint64_t> layer_digests;  // XXH3-64 of each layer's records
  std::uint64_t digest = 0;                  // of the whole set: shape and every layer
  unsigned length() const { return static_cast<unsigned>(alphabet.size()); }
  bool empty() const { return states.empty() || states[0] == 0; }
  std::uint64_t total_states() const;  // the accepting state included, the dead one not
  std::string layer_path(unsigned layer) const;
  std::string header_path() const;
};

// Writes an external set layer by layer, in any order of layers (the reduce writes them from the
// last up); finish() writes the header, which marks the set complete. Not durable (no fsync):
// only for sets that are scratch of a larger computation, which no resume reads.
class ExtDfaWriter {
 public:
  ExtDfaWriter(std::string dir, std::vector<unsigned> alphabet, bool durable = true);
  ~ExtDfaWriter();
  ExtDfaWriter(const ExtDfaWriter&) = delete;
  ExtDfaWriter& operator=(const ExtDfaWriter&) = delete;
  void begin_layer(unsigned layer);
  // One state: alphabet(layer) children, each 0 (dead) or 1 + the index of a state on the next
  // layer (on the last layer 1 is the accepting state).
  void push(const std::uint32_t* children);
  void end_layer();
  ExtDfa finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Streams one layer's states in order, checking every child index against the next layer's
// size and the layer's digest at the end.
class ExtLayerReader {
 public:
  ExtLayerReader(const ExtDfa& set, unsigned layer);
  ~ExtLayerReader();
  ExtLayerReader(const ExtLayerReader&) = delete;
  ExtLayerReader& operator=(const ExtLayerReader&) = delete;
  // The next state's children (alphabet(layer) of them); false after the last.
  bool next(std::uint32_t* children);
  std::uint64_t index() const;  // states read so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

ExtDfa open_ext(const std::string& dir);
// The canonical external form of an in-RAM set (the directory is created; durable: as
// ExtDfaWriter).
ExtDfa save_ext(const Set& set, const std::string& dir, bool durable = true);
// The digest save_ext would give the set (ExtDfa::digest), computed without writing it: how an
// in-RAM solve's sets are compared with an out-of-core solve's.
std::uint64_t canonical_digest(const Set& set);
// The set rebuilt in a manager (whose alphabets must match), bottom-up through hash-consing.
Set load_ext(Manager& manager, const ExtDfa& set);
// Reads every layer (checksums, indices, digests); throws ExtDfaError on any problem.
void verify_ext(const ExtDfa& set);
void remove_ext(const std::string& dir);

}  // namespace zermelo::dfa
