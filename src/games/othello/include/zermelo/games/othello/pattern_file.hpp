// The weights file of the pattern evaluation: a small binary, versioned and checksummed.
//
// Why: the weights are data made by `zermelo othello train`, committed beside the source and
// compiled into the binary; a damaged file, or one made for another pattern set or layout, must
// be refused with a clear error rather than silently order the solver's moves badly.
//
// Layout (little-endian): a 64-byte header, then the weights as int16, phase after phase.
//   0  magic "ZOTHPATW"            8  format version (u32)      12 pattern-set id (u32)
//   16 phases (u32)                20 phase width in empties    24 weights per phase (u32)
//   28 zero (u32)                  32 payload bytes (u64)       40 XXH3-64 (u64) of the header
//   48 training seed (u64)         56 training positions (u64)     with this field zeroed, then
//                                                                  of the payload
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/games/othello/patterns.hpp"

namespace zermelo::othello::patterns {

constexpr std::uint32_t kWeightsFormatVersion = 1;
constexpr std::size_t kWeightsHeaderBytes = 64;

// What the file records of how it was made.
struct WeightsProvenance {
  std::uint64_t seed = 0;
  std::uint64_t positions = 0;
};

std::vector<std::uint8_t> encode_weights(const PatternWeights& w, const WeightsProvenance& made);
// Throws std::runtime_error naming `what` (a path, or "the compiled-in weights") and the problem:
// not a weights file, another format version or pattern set, a size or checksum mismatch.
PatternWeights decode_weights(const std::uint8_t* data, std::size_t size, const std::string& what,
                              WeightsProvenance* made = nullptr);

void write_weights_file(const std::string& path, const PatternWeights& w,
                        const WeightsProvenance& made);
PatternWeights read_weights_file(const std::string& path, WeightsProvenance* made = nullptr);

}  // namespace zermelo::othello::patterns
