// Ostle's rules: hand-made positions for every rule, the text forms and their errors, and the
// bitboard engine against the separate reference implementation on random play.
#include <gtest/gtest.h>

#include "tests/ostle/crosscheck.hpp"
#include "tests/test_util.hpp"
#include "zermelo/games/ostle/board.hpp"

using namespace zermelo::ostle;

namespace {

Position board(const std::string& text) {
  std::string error;
  auto p = parse_position(text, &error);
  EXPECT_TRUE(p.has_value()) << error;
  return p.value_or(Position{});
}
Move move(const std::string& text) {
  std::string error;
  auto m = parse_move(text, &error);
  EXPECT_TRUE(m.has_value()) << error;
  return m.value_or(Move{});
}
std::string names(const MoveList& list) {
  std::string s;
  for (const Move& m : list) s += (s.empty() ? "" : " ") + move_name(m);
  return s;
}
std::string parse_error(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parse_state(text, &error).has_value()) << text;
  return error;
}

}  // namespace

TEST(OstleRules, StartPositionAndItsMoves) {
  const Position start = start_position();
  EXPECT_EQ(to_text(start), "11111-00000-00300-00000-22222");
  EXPECT_EQ(board("11111-00000-00300-00000-22222"), start);
  // Square order a1 a2 ... e5, then U D L R; the hole (c3) can go to any empty neighbour.
  EXPECT_EQ(names(legal_moves(start, kNoForbidden)),
            "a1U a1D a1L a1R b1U b1D b1L b1R c1U c1D c1L c1R c3U c3D c3L c3R d1U d1D d1L d1R e1U "
            "e1D e1L e1R");
}

TEST(OstleRules, PushesMoveWholeChainsOfBothColours) {
  // a1 pushes b1 (mine) and c1 (theirs) one square right; d1 is empty so the chain stops there.
  const Position p = board("11200-10000-00300-10000-22220");
  const MoveResult r = apply_move(p, move("a1R"));
  EXPECT_EQ(r.outcome, Outcome::kContinues);
  EXPECT_EQ(r.removed, -1);
  EXPECT_EQ(to_text(r.next.swapped()), "01120-10000-00300-10000-22220");
  // Its front piece was the opponent's and nothing fell: pushing it straight back is forbidden.
  EXPECT_EQ(r.next_forbid, forbid_of(move("d1L")));
}

TEST(OstleRules, PushedOffTheBoardIsRemovedAndFourToThreeWins) {
  // a1 pushes b1..e1; e1 (theirs) falls off. They had four: the mover wins.
  const Position p = board("11222-00000-00300-00000-21100");
  const MoveResult r = apply_move(p, move("a1R"));
  EXPECT_EQ(r.removed, 1);
  EXPECT_EQ(r.outcome, Outcome::kMoverWins);
  EXPECT_TRUE(is_checkmate(p));
  // With five opponent pieces it is only a removal, and nothing is forbidden afterwards.
  const Position q = board("11222-00000-00300-00000-21120");
  const MoveResult s = apply_move(q, move("a1R"));
  EXPECT_EQ(s.outcome, Outcome::kContinues);
  EXPECT_EQ(to_text(s.next.swapped()), "01122-00000-00300-00000-21120");
  EXPECT_EQ(s.next_forbid, kNoForbidden);
  EXPECT_FALSE(is_checkmate(q));
}

TEST(OstleRules, OwnPiecesMayBeMovedOffAndTheFourthLastLoses) {
  const Position p = board("11110-00000-00300-00000-22222");
  const MoveResult r = apply_move(p, move("a1U"));  // off the top edge
  EXPECT_EQ(r.removed, 0);
  EXPECT_EQ(r.outcome, Outcome::kMoverLoses);
  const Position q = board("11111-00000-00300-00000-22220");
  const MoveResult s = apply_move(q, move("e1R"));  // off the right edge, five to four
  EXPECT_EQ(s.outcome, Outcome::kContinues);
  EXPECT_EQ(to_text(s.next.swapped()), "11110-00000-00300-00000-22220");
}

TEST(OstleRules, TheHoleSwallowsThePieceInFrontAndStaysPut) {
  // c2 pushes down: c2 -> c3 is the hole, so c2's piece itself falls in; c4 is untouched.
  const Position p = board("11000-00100-00300-00200-12222");
  const MoveResult r = apply_move(p, move("c2D"));
  EXPECT_EQ(r.removed, 0);
  EXPECT_EQ(to_text(r.next.swapped()), "11000-00000-00300-00200-12222");
  // c1 pushes c2 into the hole: c2's piece is removed, c1 moves to c2, the hole stays on c3.
  const Position q = board("00100-00200-00300-11000-12222");
  const MoveResult s = apply_move(q, move("c1D"));
  EXPECT_EQ(s.removed, 1);
  EXPECT_EQ(s.outcome, Outcome::kContinues);
  EXPECT_EQ(to_text(s.next.swapped()), "00000-00100-00300-11000-12222");
}

TEST(OstleRules, TheHoleMovesOnlyOntoEmptySquares) {
  // Hole on a1 with a piece on a2 and b1 empty: only a1R (to b1).
  const Position p = board("30011-10000-00000-00022-11222");
  MoveList list = legal_moves(p, kNoForbidden);
  std::string hole_moves;
  for (const Move& m : list)
    if (m.square == p.hole) hole_moves += move_name(m) + " ";
  EXPECT_EQ(hole_moves, "a1R ");
  const MoveResult r = apply_move(p, move("a1R"));
  EXPECT_EQ(r.next.hole, square_at(1, 0));
  EXPECT_EQ(r.next_forbid, forbid_of(move("b1L")));  // the hole may not go straight back
}

TEST(OstleRules, TheRepetitionRuleForbidsExactlyTheUndo) {
  const Position start = start_position();
  const MoveResult r = apply_move(start, move("c3U"));  // hole to c2
  const MoveList after = legal_moves(r.next, r.next_forbid);
  for (const Move& m : after) EXPECT_NE(move_name(m), "c2D");
  EXPECT_EQ(after.size, legal_moves(r.next, kNoForbidden).size - 1);
  // A forbidden code that is not possibly reachable is refused by the parser.
  EXPECT_NE(parse_error("11111-00000-00300-00000-22222:a1U").find("could not have been caused"),
            std::string::npos);
  std::string error;
  auto st = parse_state("11111-00300-00000-00000-22222:c2D", &error);
  ASSERT_TRUE(st.has_value()) << error;
  EXPECT_EQ(st->second, forbid_of(move("c2D")));
}

TEST(OstleRules, CheckmateNeedsFourOpponentPiecesAndARemoval) {
  // A chain through my own pieces pushes their a5 piece off the bottom edge.
  EXPECT_TRUE(is_checkmate(board("10000-10000-10003-20000-22211")));
  // The hole breaks the chain: my a3 piece would fall into the hole on a4 instead.
  EXPECT_FALSE(is_checkmate(board("11100-00000-10000-30000-22220")));
  // Their piece in front of the hole can be pushed in.
  EXPECT_TRUE(is_checkmate(board("11001-00000-12300-00000-22020")));
  EXPECT_FALSE(is_checkmate(board("11001-00000-12300-00000-22220")));  // five of theirs
}

TEST(OstleRules, TextErrorsNameWhatIsWrong) {
  EXPECT_NE(parse_error("11111-00000-00300-00000-2222").find("wrong length"), std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-2222x").find("bad digit 'x'"), std::string::npos);
  EXPECT_NE(parse_error("11111+00000-00300-00000-22222").find("expected '-'"), std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00000-00000-22222").find("no hole"), std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00330-00000-22222").find("2 holes"), std::string::npos);
  EXPECT_NE(parse_error("11111-10000-00300-00000-22222").find("6 pieces"), std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-22000").find("2 pieces"), std::string::npos);
  EXPECT_NE(parse_error("11100-00000-00300-00000-22222").find("game already over"),
            std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-22200").find("game already over"),
            std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-22222:f3L").find("file must be a-e"),
            std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-22222:c3X").find("direction"), std::string::npos);
  EXPECT_NE(parse_error("11111-00000-00300-00000-22222:c33").find("direction"), std::string::npos);
  std::string error;
  EXPECT_TRUE(parse_position("1111100000003000000022222", &error).has_value())
      << error;  // dashes optional
}

TEST(OstleRules, AgreesWithTheReferenceOnRandomPlay) {
  // A quarter of the walks under the sanitizers: the same code paths, each walk several times
  // slower there.
  const int walks = zermelo::testing::release_else_sanitized(6000, 1500);
  const ostle_check::Stats st = ostle_check::random_walks(20260522, walks, 40);
  EXPECT_EQ(st.mismatches, 0u) << st.first_error;
  EXPECT_GT(st.states, 200000u * walks / 6000);
  EXPECT_GT(st.moves, 2000000u * walks / 6000);
}

TEST(OstleRules, ReachableForbiddenCodesAreExactlyTheUndoableLastPlies) {
  // Every possibly reachable code has an un-move, and replaying each un-move gives the state.
  std::mt19937_64 rng(7);
  std::vector<UnMove> un;
  for (int i = 0; i < 20000; ++i) {
    const Position p = ostle_check::random_position(rng);
    for (int code : reachable_forbid_codes(p)) {
      unmoves(p, code, un);
      EXPECT_FALSE(un.empty()) << state_to_text(p, code);
      if (code != kNoForbidden) {
        EXPECT_EQ(un.size(), 1u) << state_to_text(p, code);
      }
      for (const UnMove& u : un) {
        const MoveResult r = apply_move(u.prev, u.move);
        EXPECT_EQ(r.outcome, Outcome::kContinues);
        EXPECT_EQ(r.next, p) << state_to_text(p, code) << " from " << to_text(u.prev) << " by "
                             << move_name(u.move);
        EXPECT_EQ(r.next_forbid, code)
            << state_to_text(p, code) << " from " << to_text(u.prev) << " by " << move_name(u.move);
      }
    }
  }
}

TEST(OstleRules, UnmovesFindEveryMoveThatLeadsToAState) {
  // For random (position, move) pairs, the un-moves of the result contain that pair.
  std::mt19937_64 rng(11);
  std::vector<UnMove> un;
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    const Position q = ostle_check::random_position(rng);
    for (const Move& m : legal_moves(q, kNoForbidden)) {
      const MoveResult r = apply_move(q, m);
      if (r.outcome != Outcome::kContinues) continue;
      unmoves(r.next, r.next_forbid, un);
      bool found = false;
      for (const UnMove& u : un) found |= u.prev == q && u.move == m;
      EXPECT_TRUE(found) << to_text(q) << " " << move_name(m);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300000);
}

TEST(OstleRules, NothingForbiddenOnlyWhenSomeMoveLeavesNoUndo) {
  // The fast test of a "none" state's producer against the un-moves, on random positions.
  std::mt19937_64 rng(19);
  std::vector<UnMove> un;
  for (int i = 0; i < 200000; ++i) {
    const Position p = ostle_check::random_position(rng);
    unmoves(p, kNoForbidden, un);
    ASSERT_EQ(has_plain_producer(p), !un.empty()) << to_text(p);
  }
  // The opponent's five pieces fill a1 a2 a3 b1 b2 and every square beside them is taken: no move
  // can have brought them there without leaving an undo, so the board needs a forbidden move.
  const Position walled = board("22100-22300-21000-10001-00001");
  unmoves(walled, kNoForbidden, un);
  EXPECT_TRUE(un.empty());
  EXPECT_FALSE(has_plain_producer(walled));
  const ForbidList codes = reachable_forbid_codes(walled);
  ASSERT_GT(codes.size, 0);
  EXPECT_NE(codes.codes[0], kNoForbidden);
  EXPECT_EQ(reachable_forbid_count(walled), codes.size);
  std::string error;
  EXPECT_FALSE(parse_state("22100-22300-21000-10001-00001", &error));
  EXPECT_NE(error.find("nothing forbidden"), std::string::npos) << error;
  EXPECT_TRUE(parse_state("22100-22300-21000-10001-00001:c2R", &error)) << error;
}

TEST(OstleRules, EveryMoveLeavesAStateThatExists) {
  // Whatever a move leaves, its forbidden code (none included) is among the reachable codes: no
  // state that a move makes is left out, so leaving out the others cannot change any value.
  std::mt19937_64 rng(23);
  int none = 0;
  for (int i = 0; i < 20000; ++i) {
    const Position q = ostle_check::random_position(rng);
    for (const Move& m : legal_moves(q, kNoForbidden)) {
      const MoveResult r = apply_move(q, m);
      if (r.outcome != Outcome::kContinues) continue;
      bool listed = false;
      for (int c : reachable_forbid_codes(r.next)) listed |= c == r.next_forbid;
      ASSERT_TRUE(listed) << to_text(q) << " " << move_name(m);
      none += r.next_forbid == kNoForbidden;
    }
  }
  EXPECT_GT(none, 100000);
}
