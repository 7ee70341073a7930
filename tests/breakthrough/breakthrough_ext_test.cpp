// External DFA sets (ext_dfa.hpp, ext_apply.hpp) on Breakthrough's own sets, the plies of the
// forward search from the start on every board up to 5x5: the canonical form round trips, and
// union, intersection, difference and the move images out of core give the in-RAM sets'
// digests, also when the sorts spill to disk under a small budget, and with two threads
// sorting.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/test_util.hpp"
#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/dfa/ext_image.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;
using namespace zermelo::dfa;
namespace fs = std::filesystem;

using Scratch = zermelo::testing::ScratchDir;  // one per test, named after it

// op(a, b) out of core against the in-RAM result; returns the runs its sorts spilled.
std::uint64_t check(ExtOp op, const Set& a, const Set& b, const Set& want, const Scratch& s,
                    const ExtOptions& o) {
  const ExtDfa ea = save_ext(a, s / "a"), eb = save_ext(b, s / "b");
  ExtStats stats;
  const ExtDfa got = ext_apply(op, ea, eb, s / "out", o, &stats);
  EXPECT_EQ(got.digest, save_ext(want, s / "want").digest) << static_cast<int>(op);
  EXPECT_EQ(stats.result_states, want.states());
  EXPECT_TRUE(load_ext(*a.manager(), got) == want);
  return stats.spilled_runs;
}

// The forward plies R(0..plies) of a board, each against the next and the terminal sets.
std::uint64_t check_board(const std::string& board, unsigned plies, std::uint64_t memory,
                          unsigned threads = 1) {
  Scratch s;
  ExtOptions o{s / "tmp", memory};
  o.threads = threads;
  auto b = breakthrough::parse_board(board);
  auto m = breakthrough::make_manager(b, 1ull << 30);
  SetGame g = breakthrough::make_game(*m, b);
  Set r = m->singleton(g.start);
  std::uint64_t spilled = 0;
  for (unsigned ply = 0; ply < plies && !r.is_empty(); ++ply) {
    Set next = forward(g, r - (g.won0 | g.lost0));
    spilled += check(ExtOp::kUnion, r, next, r | next, s, o);
    spilled += check(ExtOp::kMinus, next, g.lost0, next - g.lost0, s, o);
    spilled += check(ExtOp::kIntersect, next, g.won0 | g.lost0, next & (g.won0 | g.lost0), s, o);
    r = next;
  }
  return spilled;
}

// Under the sanitizers fewer plies: the same code paths, each several times slower there.
constexpr unsigned kFirstPlies = zermelo::testing::release_else_sanitized(6u, 3u);

TEST(BreakthroughExt, SetOperationsOutOfCoreMatchInRamOnSmallBoards) {
  // Every ply of 2x4; the first of the others (each pass syncs its files, which takes time).
  check_board("2x4", zermelo::testing::release_else_sanitized(40u, 12u), 96ull << 20);
  for (const char* board : {"3x4", "2x5", "2x6", "4x4", "3x5"})
    check_board(board, kFirstPlies, 96ull << 20);
}

TEST(BreakthroughExt, SetOperationsOutOfCoreMatchInRamOnLargerBoards) {
  for (const char* board : {"4x5", "5x4"}) check_board(board, kFirstPlies - 1, 96ull << 20);
}

TEST(BreakthroughExt, SetOperationsOutOfCoreMatchInRamOn5x5EvenWhenSpilling) {
  // A budget that makes the sorts spill: from the eighth ply on (14 runs there, 119 in the ninth),
  // so under the sanitizers the first eight plies, the ninth, the largest, in Release alone.
  const unsigned plies = zermelo::testing::release_else_sanitized(9u, 8u);
  EXPECT_GT(check_board("5x5", plies, 56ull << 20), 0u);
}

TEST(BreakthroughExt, SetOperationsOnTwoThreadsMatchInRamOn5x5EvenWhenSpilling) {
  // The sorts' full buffers sorted as two halves at once and spilled as two runs (a budget with
  // about the sorts' room of the one above: a second writer's buffers come off it). Nine plies
  // under the sanitizers too: with this budget the first eight do not spill.
  EXPECT_GT(check_board("5x5", 9, 84ull << 20, 2), 0u);
}

// The image of a set under all the moves out of core: the one-pass image, and (if `per_move`)
// also the first way, a pass a move and unions.
ExtDfa image(const ExtDfa& set, const std::vector<Change>& changes, const fs::path& out,
             const ExtOptions& o, bool per_move) {
  const ExtDfa all = ext_change_all(set, changes, out / "all", o);
  if (per_move) {
    EXPECT_EQ(ext_change_union(set, changes, out / "each", o).digest, all.digest);
  }
  return all;
}

// The forward and backward images of the plies out of core against the in-RAM images (forward /
// reverse of the solver: the union over the moves, within pre and post).
void check_images(const std::string& board, unsigned plies, std::uint64_t memory, bool per_move,
                  unsigned threads = 1) {
  Scratch s;
  auto b = breakthrough::parse_board(board);
  auto m = breakthrough::make_manager(b, 1ull << 30);
  SetGame g = breakthrough::make_game(*m, b);
  std::vector<Change> moves, unmoves;
  for (const SetMove& mv : g.moves) {
    ASSERT_TRUE(mv.post == g.all);  // Breakthrough's moves filter on their pre only
    ASSERT_TRUE(mv.pre == g.moves[0].pre);
    moves.push_back(mv.change);
    unmoves.push_back(mv.change.inverse());
  }
  ExtOptions o{s / "tmp", memory};
  o.threads = threads;
  const ExtDfa pre = save_ext(g.moves[0].pre, s / "pre");
  Set r = m->singleton(g.start);
  for (unsigned ply = 0; ply < plies && !r.is_empty(); ++ply) {
    const Set open = r & g.moves[0].pre;
    const Set next = forward(g, r);
    const ExtDfa ext_next = image(save_ext(open, s / "open"), moves, s / "next", o, per_move);
    EXPECT_EQ(ext_next.digest, save_ext(next, s / "want").digest) << board << " ply " << ply;
    const ExtDfa back = image(ext_next, unmoves, s / "back", o, per_move);
    const ExtDfa back_in_pre = ext_apply(ExtOp::kIntersect, back, pre, s / "bp", o);
    EXPECT_EQ(back_in_pre.digest, save_ext(reverse(g, next), s / "want").digest) << board;
    r = next;
  }
}

TEST(BreakthroughExt, MoveImagesOutOfCoreMatchInRam) {
  // The per-move way is a pass a move: a few plies of small boards keep the test short.
  check_images("2x4", zermelo::testing::release_else_sanitized(4u, 2u), 96ull << 20, true);
  if (!zermelo::testing::kSanitized) check_images("3x4", 2, 96ull << 20, true);
}

TEST(BreakthroughExt, OnePassImagesOfAllMovesMatchInRam) {
  check_images("3x4", zermelo::testing::release_else_sanitized(7u, 4u), 96ull << 20, false);
  check_images("4x4", zermelo::testing::release_else_sanitized(5u, 3u), 96ull << 20, false);
  check_images("5x5", zermelo::testing::release_else_sanitized(5u, 2u), 56ull << 20, false);
}

TEST(BreakthroughExt, OnePassImagesOnTwoThreadsMatchInRam) {
  check_images("5x5", zermelo::testing::release_else_sanitized(7u, 3u), 84ull << 20, false, 2);
}

}  // namespace
