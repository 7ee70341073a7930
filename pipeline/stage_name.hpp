// Manifest stage and run file names that carry a number ("level-12", "frontier-13.run"): spelled
// and read back in one way, so that no caller counts characters to find the number.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zermelo {

// `stem`, or `stem-<n>` when numbered.
struct NumberedName {
  std::string_view stem;
  bool numbered = true;

  std::string spell(std::uint64_t n) const {
    std::string s(stem);
    return numbered ? s + "-" + std::to_string(n) : s;
  }
  // The number `text` carries if it is this name (0 for a name without one), else nullopt.
  std::optional<std::uint64_t> read(std::string_view text) const {
    if (!numbered) return text == stem ? std::optional<std::uint64_t>(0) : std::nullopt;
    if (text.size() <= stem.size() + 1 || !text.starts_with(stem) || text[stem.size()] != '-')
      return std::nullopt;
    const std::string_view digits = text.substr(stem.size() + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c) != 0; }))
      return std::nullopt;
    return std::stoull(std::string(digits));
  }
};

}  // namespace zermelo
