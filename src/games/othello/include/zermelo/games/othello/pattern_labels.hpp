// Labelled positions kept in a file, so that the fit can be repeated without the exact solves.
//
// Why: labelling is the expensive part of `othello train` (an exact solve a position), the fit
// takes seconds; choosing the ridge or the phases, or measuring several weight files against one
// held-out set, should not pay the solves again. The file is a cache: it records the options that
// made it (seed, count, empties, sampling) and is refused for any other, so the weights stay a
// function of the command's options alone.
//
// Format: text, a header line "zermelo-othello-labels 1 SEED COUNT MIN MAX KEEP", then one line a
// position: the mover's and the opponent's discs in hex, and the exact score.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/games/othello/pattern_train.hpp"

namespace zermelo::othello::patterns {

struct LabelSet {
  std::uint64_t seed = 1;
  int count = 0, min_empties = 4, max_empties = 18, keep_one_in = 1;
  bool operator==(const LabelSet&) const = default;
};

// The positions of `set`: read from `path` when it holds that set, else labelled (threads
// workers) and written there. An empty path: labelled, no file. Throws std::runtime_error for a
// file of another set or a damaged one.
std::vector<LabelledPosition> cached_labels(const std::string& path, const LabelSet& set,
                                            unsigned threads);

// The positions of `set` labelled in chunks of `chunk` positions (0: one chunk), chunk c from the
// games of seed `set.seed + c * kChunkSeedStep`, each chunk cached in `dir` (when not empty) under
// a name made of its options: a long labelling stopped midway keeps its finished chunks, and a run
// asking for fewer positions reuses the first ones. One chunk is labelled_positions(set) itself.
constexpr std::uint64_t kChunkSeedStep = 0x9e3779b97f4a7c15ULL;
std::vector<LabelledPosition> chunked_labels(const std::string& dir, const LabelSet& set, int chunk,
                                             unsigned threads);

}  // namespace zermelo::othello::patterns
