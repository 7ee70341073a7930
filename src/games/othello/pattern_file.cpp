// Encoding, decoding and checking the pattern weights file (pattern_file.hpp).
#include "zermelo/games/othello/pattern_file.hpp"

#include <xxhash.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace zermelo::othello::patterns {
namespace {

constexpr char kMagic[8] = {'Z', 'O', 'T', 'H', 'P', 'A', 'T', 'W'};
constexpr std::size_t kChecksumAt = 40;

void put(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t get(const std::uint8_t* in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
  return v;
}

// XXH3 of the header with its checksum field zeroed, then of the payload.
std::uint64_t checksum(const std::uint8_t* data, std::size_t size) {
  std::uint8_t header[kWeightsHeaderBytes];
  std::memcpy(header, data, kWeightsHeaderBytes);
  std::memset(header + kChecksumAt, 0, 8);
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, header, kWeightsHeaderBytes);
  XXH3_64bits_update(st, data + kWeightsHeaderBytes, size - kWeightsHeaderBytes);
  const std::uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

}  // namespace

std::vector<std::uint8_t> encode_weights(const PatternWeights& w, const WeightsProvenance& made) {
  const auto per_phase = static_cast<std::size_t>(layout().per_phase);
  if (w.phases <= 0 || w.phase_width <= 0 ||
      w.weights.size() != static_cast<std::size_t>(w.phases) * per_phase)
    throw std::invalid_argument("othello patterns: weights do not match their phases");
  const std::size_t payload = 2 * w.weights.size();
  std::vector<std::uint8_t> out(kWeightsHeaderBytes + payload, 0);
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  put(out, 8, kWeightsFormatVersion, 4);
  put(out, 12, kPatternSetId, 4);
  put(out, 16, static_cast<std::uint64_t>(w.phases), 4);
  put(out, 20, static_cast<std::uint64_t>(w.phase_width), 4);
  put(out, 24, per_phase, 4);
  put(out, 32, payload, 8);
  put(out, 48, made.seed, 8);
  put(out, 56, made.positions, 8);
  for (std::size_t i = 0; i < w.weights.size(); ++i)
    put(out, kWeightsHeaderBytes + 2 * i, static_cast<std::uint16_t>(w.weights[i]), 2);
  put(out, kChecksumAt, checksum(out.data(), out.size()), 8);
  return out;
}

PatternWeights decode_weights(const std::uint8_t* data, std::size_t size, const std::string& what,
                              WeightsProvenance* made) {
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error("othello pattern weights " + what + ": " + why);
  };
  if (size < kWeightsHeaderBytes || std::memcmp(data, kMagic, sizeof kMagic) != 0)
    fail("not a pattern weights file (no ZOTHPATW header)");
  const auto version = get(data, 8, 4);
  if (version != kWeightsFormatVersion)
    fail("format version " + std::to_string(version) + ", this build reads version " +
         std::to_string(kWeightsFormatVersion));
  const auto set = get(data, 12, 4);
  if (set != kPatternSetId)
    fail("made for pattern set " + std::to_string(set) + ", this build's is " +
         std::to_string(kPatternSetId));
  PatternWeights w;
  w.phases = static_cast<int>(get(data, 16, 4));
  w.phase_width = static_cast<int>(get(data, 20, 4));
  const auto per_phase = get(data, 24, 4);
  const auto payload = get(data, 32, 8);
  if (per_phase != static_cast<std::uint64_t>(layout().per_phase))
    fail(std::to_string(per_phase) + " weights a phase, this build's pattern set has " +
         std::to_string(layout().per_phase));
  if (w.phases <= 0 || w.phases > 64 || w.phase_width <= 0 || w.phase_width > 64)
    fail("bad phases (" + std::to_string(w.phases) + " of width " + std::to_string(w.phase_width) +
         ")");
  if (payload != 2 * per_phase * static_cast<std::uint64_t>(w.phases) ||
      size != kWeightsHeaderBytes + payload)
    fail("size " + std::to_string(size) + " bytes does not match its header (truncated?)");
  if (get(data, kChecksumAt, 8) != checksum(data, size))
    fail("checksum mismatch: the file is damaged");
  w.weights.resize(static_cast<std::size_t>(payload / 2));
  for (std::size_t i = 0; i < w.weights.size(); ++i)
    w.weights[i] = static_cast<std::int16_t>(
        static_cast<std::uint16_t>(get(data, kWeightsHeaderBytes + 2 * i, 2)));
  if (made) *made = {get(data, 48, 8), get(data, 56, 8)};
  return w;
}

void write_weights_file(const std::string& path, const PatternWeights& w,
                        const WeightsProvenance& made) {
  const std::vector<std::uint8_t> bytes = encode_weights(w, made);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("othello train: cannot write " + path);
}

PatternWeights read_weights_file(const std::string& path, WeightsProvenance* made) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("othello pattern weights " + path + ": cannot open");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  return decode_weights(bytes.data(), bytes.size(), path, made);
}

// The bytes of data/othello/patterns.bin (generated at build time, cmake/embed_file.cmake).
extern const unsigned char kEmbeddedWeights[];
extern const std::size_t kEmbeddedWeights_size;

const PatternWeights& default_pattern_weights() {
  static const PatternWeights w = [] {
    if (kEmbeddedWeights_size == 0)
      throw std::runtime_error(
          "othello pattern weights: none compiled in (data/othello/patterns.bin was missing at "
          "build time; make it with `zermelo othello train`)");
    return decode_weights(kEmbeddedWeights, kEmbeddedWeights_size, "compiled in");
  }();
  return w;
}

}  // namespace zermelo::othello::patterns
