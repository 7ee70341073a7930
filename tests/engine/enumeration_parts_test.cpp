// Games that cut their enumeration into parts (Game::enumeration_parts, for the ranks of an MPI
// solve): the parts together emit exactly enumerate's states, each once, in every tier; a game
// that enumerates in key order keeps that order across its parts.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

void expect_parts_are_the_enumeration(const Game& g, const std::string& what) {
  for (const Tier& t : g.tiers()) {
    std::vector<StateKey> whole, parts;
    g.enumerate(t.name, [&](StateKey k) { whole.push_back(k); });
    const std::uint64_t n = g.enumeration_parts(t.name);
    for (std::uint64_t p = 0; p < n; ++p)
      g.enumerate_part(t.name, p, [&](StateKey k) { parts.push_back(k); });
    if (g.enumerates_in_key_order()) {
      EXPECT_EQ(parts, whole) << what << " tier " << t.name;
      continue;
    }
    std::sort(whole.begin(), whole.end()), std::sort(parts.begin(), parts.end());
    EXPECT_EQ(parts, whole) << what << " tier " << t.name;
  }
}

TEST(EnumerationParts, TogetherTheyAreTheEnumeration) {
  for (const auto& [name, options] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"nim", {"4x6"}},
           {"nim", {"2x3", "tiered"}},
           {"ostle-mini", {"2x3:p2"}},
           {"onitama", {"2x3", "boar"}},
           {"onitama", {"3x4", "boar", "symmetry"}}}) {
    const auto g = make_game(name, options);
    expect_parts_are_the_enumeration(*g, name + " " + options.front());
  }
}

}  // namespace
}  // namespace zermelo
