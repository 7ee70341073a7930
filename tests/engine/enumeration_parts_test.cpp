// Games that cut their enumeration into parts (Game::enumeration_parts, for the ranks of an MPI
// solve): the parts together emit exactly enumerate's states, each once, in every tier; a game
// that enumerates in key order keeps that order across its parts. Walked on threads (step 1,
// parts_walk.hpp), the parts come out in part order, exactly as one thread walks them, and an
// error in a part or in the consumer stops every thread and reaches the caller.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/retrograde/parts_walk.hpp"
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

std::vector<StateKey> walked(const retro::StateWalk& walk) {
  std::vector<StateKey> keys;
  walk([&](StateKey k) { keys.push_back(k); });
  return keys;
}

TEST(EnumerationParts, WalkedOnThreadsTheyComeInPartOrder) {
  for (const auto& [name, options] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"nim", {"5x7"}}, {"ostle-mini", {"3x3:p2"}}, {"onitama", {"3x4", "boar"}}}) {
    const auto g = make_game(name, options);
    for (const Tier& t : g->tiers()) {
      const std::uint64_t n = g->enumeration_parts(t.name);
      const std::vector<StateKey> one = walked(retro::parts_walk(*g, t.name, 0, n, 1));
      for (unsigned threads : {2u, 3u, 7u})
        EXPECT_EQ(walked(retro::parts_walk(*g, t.name, 0, n, threads)), one)
            << name << " tier " << t.name << " on " << threads << " threads";
      EXPECT_EQ(walked(retro::parts_walk(*g, t.name, n / 3, n, 2)).size(),
                walked(retro::parts_walk(*g, t.name, n / 3, n, 1)).size());
    }
  }
}

// Part p emits p * 5,000 keys (several chunks a part), and part `bad` throws.
class PartsThatFail final : public Game {
 public:
  explicit PartsThatFail(std::uint64_t bad) : bad_(bad) {}
  std::string name() const override { return "parts-that-fail"; }
  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    for (std::uint64_t p = 0; p < enumeration_parts(tier); ++p) enumerate_part(tier, p, emit);
  }
  std::uint64_t enumeration_parts(const std::string&) const override { return 40; }
  void enumerate_part(const std::string&, std::uint64_t p,
                      const std::function<void(StateKey)>& emit) const override {
    if (p == bad_) throw std::runtime_error("part " + std::to_string(p) + " failed");
    for (std::uint64_t i = 0; i < p * 5000; ++i) emit(p << 32 | i);
  }
  StateKey start() const override { return 0; }
  void successors(StateKey, std::vector<Child>& out) const override { out.clear(); }
  std::string render(StateKey s) const override { return std::to_string(s); }

 private:
  std::uint64_t bad_;
};

TEST(EnumerationParts, AnErrorStopsEveryThreadAndReachesTheCaller) {
  for (unsigned threads : {1u, 2u, 5u}) {
    EXPECT_THROW(walked(retro::parts_walk(PartsThatFail(17), "all", 0, 40, threads)),
                 std::runtime_error)
        << threads << " threads";
    std::uint64_t n = 0;
    const auto stop_at_a_million = [&](StateKey) {
      if (++n == 1000000) throw std::length_error("enough");
    };
    EXPECT_THROW(retro::parts_walk(PartsThatFail(99), "all", 0, 40, threads)(stop_at_a_million),
                 std::length_error);
    EXPECT_EQ(n, 1000000u);
    EXPECT_EQ(walked(retro::parts_walk(PartsThatFail(99), "all", 0, 40, threads)).size(),
              5000u * (39 * 40 / 2));
  }
}

}  // namespace
}  // namespace zermelo
