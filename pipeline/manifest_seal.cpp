// The manifest's checksum of its own text (see manifest_seal.hpp).
#include "zermelo/pipeline/manifest_seal.hpp"

#include <xxhash.h>

#include <cstdio>
#include <stdexcept>

namespace zermelo {
namespace {

// A top-level entry of a dump(2) text: two spaces in, the only such "checksum" key.
constexpr const char* kMarker = "\n  \"checksum\": \"";

struct Slot {
  std::size_t begin = 0, end = 0;  // the value's characters, between its quotes
};

std::optional<Slot> find_slot(const std::string& text) {
  const std::size_t at = text.find(kMarker);
  if (at == std::string::npos || text.find(kMarker, at + 1) != std::string::npos) return {};
  Slot s;
  s.begin = at + std::char_traits<char>::length(kMarker);
  s.end = text.find('"', s.begin);
  if (s.end == std::string::npos) return {};
  return s;
}

std::string hex_of(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The checksum of a text whose slot is empty.
std::string checksum_of_unsealed(const std::string& text) {
  return hex_of(XXH3_64bits(text.data(), text.size()));
}

}  // namespace

std::string seal_manifest_text(const std::string& text) {
  std::optional<Slot> s = find_slot(text);
  if (!s || s->end != s->begin) throw std::logic_error("manifest text without an empty checksum");
  std::string out = text;
  out.insert(s->begin, checksum_of_unsealed(text));
  return out;
}

SealState check_manifest_seal(const std::string& text) {
  std::optional<Slot> s = find_slot(text);
  if (!s) return SealState::kMissing;
  std::string unsealed = text;
  unsealed.erase(s->begin, s->end - s->begin);
  const std::string stored = text.substr(s->begin, s->end - s->begin);
  return stored == checksum_of_unsealed(unsealed) ? SealState::kValid : SealState::kMismatch;
}

}  // namespace zermelo
