// Onitama's exit slots (ExitSlots): the contract the engine's exit values rely on, checked on
// every legal state of small boards, and a solve that settles captures from the array equal, tier
// for tier, to one that looks every capture up in the lower tiers' values runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/game.hpp"

namespace zermelo {
namespace {

// Distinct states get distinct slots, and every child a move of a tier sends into another tier
// has its slot in that tier's exit range.
void expect_exit_slots_keep_their_contract(const std::vector<std::string>& options) {
  auto game = make_game("onitama", options);
  std::vector<std::uint64_t> slots;
  std::vector<Child> kids;
  std::uint64_t exits = 0;
  for (auto& tier : game->tiers()) {
    const Game::SlotRange range = game->exit_slots(tier.name);
    game->enumerate(tier.name, [&](StateKey s) {
      slots.push_back(game->exit_slot(s));
      game->successors(s, kids);
      for (const Child& c : kids) {
        if (c.is_terminal() || game->tier_of(c.key) == tier.name) continue;
        ++exits;
        const std::uint64_t slot = game->exit_slot(c.key);
        ASSERT_TRUE(slot >= range.first && slot < range.end)
            << options[0] << " tier " << tier.name << ": child " << c.key << " of " << s
            << " has slot " << slot << " outside [" << range.first << ", " << range.end << ")";
      }
    });
  }
  std::sort(slots.begin(), slots.end());
  EXPECT_EQ(std::adjacent_find(slots.begin(), slots.end()), slots.end())
      << options[0] << ": two states share a slot";
  EXPECT_GT(exits, 0u);
}

TEST(OnitamaExitSlots, DistinctForEveryLegalStateAndInTheirTiersRange) {
  expect_exit_slots_keep_their_contract({"3x3", "boar"});
  expect_exit_slots_keep_their_contract({"3x3", "boar", "symmetry"});
  expect_exit_slots_keep_their_contract({"4x2", "boar", "symmetry"});
  expect_exit_slots_keep_their_contract({"2x4", "rabbit,monkey,elephant,crane,cobra"});
  expect_exit_slots_keep_their_contract({"2x4", "rabbit,monkey,elephant,crane,cobra", "symmetry"});
}

TEST(OnitamaExitSlots, ArrayAndLookupsGiveTheSameValues) {
  testing::ScratchDir dir;
  auto game =
      make_game("onitama", {testing::release_else_sanitized("3x4", "3x3"), "boar", "symmetry"});
  SolveOptions o;
  o.memory_bytes = 256ull << 20;
  o.job_dir = dir / "array";
  auto with_array = solve_tiers(*game, o, "all");
  o.job_dir = dir / "lookups";
  o.exit_values = false;
  auto with_lookups = solve_tiers(*game, o, "all");
  ASSERT_EQ(with_array.size(), with_lookups.size());
  std::uint64_t settled = 0;
  for (std::size_t i = 0; i < with_array.size(); ++i) {
    EXPECT_EQ(with_array[i].digest, with_lookups[i].digest) << with_array[i].tier;
    EXPECT_EQ(with_lookups[i].exit_moves_settled, 0u);
    settled += with_array[i].exit_moves_settled;
  }
  EXPECT_GT(settled, 0u) << "the array was not used";
}

}  // namespace
}  // namespace zermelo
