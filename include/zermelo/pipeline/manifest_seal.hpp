// A manifest's checksum of its own bytes, so that every byte of a finished job is covered: run
// files checksum their blocks, header and footer; the manifest, a JSON text people may open and
// edit, carries "checksum": the XXH3 of its exact text with that value left empty. Any change
// to the file — a flipped byte in a fact, the format, or even in the whitespace — fails the check.
#pragma once
#include <optional>
#include <string>

namespace zermelo {

// The text with its "checksum" entry filled in. `text` must hold `"checksum": ""` exactly once,
// as nlohmann::json::dump(2) writes a top-level entry with an empty string.
std::string seal_manifest_text(const std::string& text);

enum class SealState { kValid, kMissing, kMismatch };
// Whether `text` carries a checksum and it matches its bytes.
SealState check_manifest_seal(const std::string& text);

}  // namespace zermelo
