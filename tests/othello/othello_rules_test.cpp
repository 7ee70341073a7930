// Othello rules: move generation against a naive square-by-square reference, perft and the
// symmetry-unique position counts from the spec, notation parsing and its errors.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "tests/othello/mailbox_reference.hpp"
#include "tests/othello/random_play.hpp"
#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/perft.hpp"

using namespace zermelo::othello;

namespace {

// The rules spelled out on a plain grid: the reference the bitboard code must agree with.
template <int N>
Bits naive_flips(Bits p, Bits o, int sq) {
  return zermelo::othello::test_support::Mailbox<N>::flips(p, o, sq);
}

template <int N>
void check_random_games(int games, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (int g = 0; g < games; ++g) {
    Bits p = Geometry<N>::kStartBlack, o = Geometry<N>::kStartWhite;
    for (int ply = 0; ply < 80; ++ply) {
      Bits naive_moves = 0;
      for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c)
          if (naive_flips<N>(p, o, r * 8 + c)) naive_moves |= bit(r * 8 + c);
      const Bits moves = legal_moves<N>(p, o);
      ASSERT_EQ(moves, naive_moves) << "game " << g << " ply " << ply;
      for (Bits m = moves; m; m &= m - 1) {
        const int sq = std::countr_zero(m);
        ASSERT_EQ(flips<N>(p, o, sq), naive_flips<N>(p, o, sq)) << square_name(sq);
      }
      if (!moves) {
        if (!legal_moves<N>(o, p)) break;
        std::swap(p, o);
        continue;
      }
      zermelo::othello::test_support::play_random_move<N>(rng, moves, p, o);
    }
  }
}

}  // namespace

// The 8x8 kernels on arbitrary boards (not only reachable ones), where every ray shape occurs:
// both move generators (vector and scalar) and the flips of every empty square.
TEST(OthelloRules, EightByEightKernelsMatchNaiveReferenceOnRandomBoards) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 20000; ++i) {
    Bits occupied = rng();
    for (int k = 0; k < i % 4; ++k) occupied |= rng();  // half to nearly all squares taken
    const Bits side = rng();
    const Bits p = occupied & side, o = occupied & ~side;
    Bits naive_moves = 0;
    for (int sq = 0; sq < 64; ++sq) {
      const Bits f = naive_flips<8>(p, o, sq);
      if (f) naive_moves |= bit(sq);
      if (!((p | o) & bit(sq))) {
        ASSERT_EQ(flips<8>(p, o, sq), f) << square_name(sq);
      }
    }
    ASSERT_EQ(legal_moves<8>(p, o), naive_moves);
    ASSERT_EQ(moves8::legal_moves_scalar(p, o), naive_moves);
  }
}

TEST(OthelloRules, MovesAndFlipsMatchNaiveReference8) { check_random_games<8>(300, 1); }
TEST(OthelloRules, MovesAndFlipsMatchNaiveReference6) { check_random_games<6>(300, 2); }
TEST(OthelloRules, MovesAndFlipsMatchNaiveReference4) { check_random_games<4>(300, 3); }

TEST(OthelloRules, PerftFromStartMatchesPublishedCounts) {
  const std::uint64_t expected[] = {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
  const Bits b = Geometry<8>::kStartBlack, w = Geometry<8>::kStartWhite;
  for (int d = 1; d <= 9; ++d) {
    EXPECT_EQ(perft<8>(b, w, d), expected[d]) << "depth " << d;
    // No game ends before ply 9, so both conventions agree up to there.
    EXPECT_EQ(perft<8>(b, w, d, EndedGames::kStayLeaves), expected[d]) << "depth " << d;
  }
}

TEST(OthelloRules, SymmetryUniquePositionsByDiscs) {
  const std::uint64_t expected[] = {1,   1,    3,     14,    60,
                                    322, 1773, 10649, 67245, 434029};  // 4..13 discs
  const auto counts = unique_positions_by_discs<8>(13);
  ASSERT_EQ(counts.size(), 10u);
  for (std::size_t i = 0; i < counts.size(); ++i)
    EXPECT_EQ(counts[i], expected[i]) << (i + 4) << " discs";
}

TEST(OthelloRules, SymmetriesAreABoardGroup) {
  // Each transform maps the board onto itself and the 8 images of an asymmetric shape differ.
  const Bits shape = bit(0) | bit(1) | bit(9) | bit(10) | bit(17);  // A1 B1 B2 C2 B3
  std::vector<Bits> images;
  for (int k = 0; k < 8; ++k) {
    const Bits t8 = transform<8>(shape, k);
    EXPECT_EQ(popcount(t8), 5);
    EXPECT_EQ(t8 & ~Geometry<8>::kMask, 0u);
    images.push_back(t8);
    const Bits t6 = transform<6>(shape, k);
    EXPECT_EQ(t6 & ~Geometry<6>::kMask, 0u) << k;
    EXPECT_EQ(popcount(t6), 5);
  }
  std::sort(images.begin(), images.end());
  EXPECT_EQ(std::unique(images.begin(), images.end()), images.end());
  EXPECT_EQ(transform<8>(bit(0), 1), bit(56));  // A1 -> A8
  EXPECT_EQ(transform<6>(bit(0), 2), bit(5));   // A1 -> F1 on 6x6
  EXPECT_EQ(transform<4>(bit(1), 4), bit(8));   // B1 -> A2
}

TEST(OthelloRules, SmallBoardsStartAndPerft) {
  EXPECT_EQ(popcount(legal_moves<6>(Geometry<6>::kStartBlack, Geometry<6>::kStartWhite)), 4);
  EXPECT_EQ(popcount(legal_moves<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite)), 4);
  // The first three plies from a centred start do not touch any edge, so they match the 8x8 counts.
  EXPECT_EQ(perft<6>(Geometry<6>::kStartBlack, Geometry<6>::kStartWhite, 1), 4u);
  EXPECT_EQ(perft<6>(Geometry<6>::kStartBlack, Geometry<6>::kStartWhite, 2), 12u);
  EXPECT_EQ(perft<6>(Geometry<6>::kStartBlack, Geometry<6>::kStartWhite, 3), 56u);
}

TEST(OthelloNotation, ParsesFfoBoardAndSquares) {
  const Position s = start_position(8);
  EXPECT_EQ(board_string(s), "---------------------------OX------XO---------------------------");
  const Position p = parse_position(board_string(s), "X");
  EXPECT_EQ(p.black, s.black);
  EXPECT_EQ(p.white, s.white);
  EXPECT_FALSE(p.white_to_move);
  EXPECT_TRUE(parse_position(board_string(s), "white").white_to_move);
  EXPECT_EQ(parse_square("a1"), 0);
  EXPECT_EQ(parse_square("H8"), 63);
  EXPECT_EQ(parse_square("D3"), 19);
  EXPECT_EQ(parse_square("ps"), kPass);
  EXPECT_EQ(square_name(19), "D3");
  EXPECT_EQ(parse_square("F6", 6), 45);
  EXPECT_EQ(board_string(start_position(4)), "-----OX--XO-----");
}

TEST(OthelloNotation, RejectsBadInputWithClearErrors) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { parse_position("XO-", "X"); }).find("3 squares, expected 64"),
            std::string::npos);
  EXPECT_NE(message([] { parse_position(std::string(63, '-') + "Z", "X"); }).find("'Z'"),
            std::string::npos);
  EXPECT_NE(message([] { parse_position(std::string(65, '-'), "X"); }).find("more than 64"),
            std::string::npos);
  EXPECT_NE(message([] { parse_position(std::string(64, '-'), "Q"); }).find("side to move"),
            std::string::npos);
  EXPECT_NE(message([] { parse_square("I1"); }).find("not a square"), std::string::npos);
  EXPECT_NE(message([] { parse_square("E5", 4); }).find("4x4"), std::string::npos);
  EXPECT_NE(
      message([] { parse_obf_line(std::string(64, '-') + " X; A1:x1;"); }).find("not an integer"),
      std::string::npos);
  EXPECT_NE(message([] { parse_board_and_side(std::string(64, '-')); }).find("65 characters"),
            std::string::npos);
}

// The forms a position is written in: "<board> <side>", the 65-character form, a whole .obf line.
TEST(OthelloNotation, ReadsAPositionInEveryForm) {
  const std::string board = board_string(start_position(8));
  const Position spaced = parse_board_and_side(board + " O");
  const Position joined = parse_board_and_side(board + "O");
  EXPECT_TRUE(joined.white_to_move);
  EXPECT_EQ(joined.black, spaced.black);
  EXPECT_EQ(joined.white, spaced.white);
  EXPECT_EQ(spaced.white_to_move, joined.white_to_move);
  EXPECT_EQ(parse_board_and_side("-----OX--XO-----X", 4).empties(), 12);
  const ObfEntry line = parse_obf_line(board + "X; D3:+0; C4:+0;");
  EXPECT_FALSE(line.position.white_to_move);
  EXPECT_EQ(line.best_moves(), (std::vector<int>{parse_square("D3"), parse_square("C4")}));
  EXPECT_FALSE(parse_obf_line(board + " X").published());
}

// A malformed line of a problem file is named by its line number and what is wrong with it.
TEST(OthelloNotation, NamesTheLineOfAMalformedObfFile) {
  const std::string path = ::testing::TempDir() + "/malformed.obf";
  std::ofstream(path) << "% a comment\n" << std::string(64, '-') << " X; A1:+2;\nXO- X;\n";
  try {
    read_obf_file(path);
    FAIL() << "a malformed line was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(path + " line 3: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3 squares, expected 64"), std::string::npos) << e.what();
  }
}

TEST(OthelloNotation, ReadsTheFfoFile) {
  const auto entries = read_obf_file(ZERMELO_FFO_FILE);
  ASSERT_EQ(entries.size(), 10u);
  EXPECT_EQ(entries[0].line, 1);
  EXPECT_EQ(entries[9].line, 10);
  EXPECT_EQ(entries[0].best_score(), 38);
  EXPECT_EQ(entries[0].best_moves(), std::vector<int>{parse_square("A2")});
  EXPECT_EQ(entries[0].position.empties(), 20);
  EXPECT_EQ(entries[9].best_score(), 16);
  EXPECT_EQ(entries[3].position.white_to_move, true);
}
