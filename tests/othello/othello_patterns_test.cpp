// The pattern evaluation: its features, the symmetry of its values, the reproducibility of its
// training, and the weights file's refusal of a damaged or mismatched file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/othello/random_play.hpp"
#include "tests/test_util.hpp"
#include "zermelo/games/othello/pattern_children.hpp"
#include "zermelo/games/othello/pattern_file.hpp"
#include "zermelo/games/othello/pattern_labels.hpp"
#include "zermelo/games/othello/pattern_train.hpp"
#include "zermelo/games/othello/patterns.hpp"

using namespace zermelo::othello;
using namespace zermelo::othello::patterns;

namespace {

// Random 8x8 positions from random play, the side to move having a move.
std::vector<std::pair<Bits, Bits>> random_positions(int count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Bits, Bits>> out;
  while (static_cast<int>(out.size()) < count) {
    Bits p = Geometry<8>::kStartBlack, o = Geometry<8>::kStartWhite;
    const int plies = 1 + static_cast<int>(rng() % 58);
    for (int i = 0; i < plies; ++i) {
      const Bits moves = legal_moves<8>(p, o);
      if (!moves) break;
      test_support::play_random_move<8>(rng, moves, p, o);
    }
    if (legal_moves<8>(p, o)) out.emplace_back(p, o);
  }
  return out;
}

// A small labelled set: cheap exact solves (4..10 empties).
const std::vector<LabelledPosition>& small_set() {
  static const std::vector<LabelledPosition> data = labelled_positions(3, 400, 4, 10, 1);
  return data;
}

std::string decode_error(const std::vector<std::uint8_t>& bytes) {
  try {
    decode_weights(bytes.data(), bytes.size(), "test.bin");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Each instance reads its squares square by square as the table's base-3 digits say.
TEST(OthelloPatterns, IndicesMatchASquareBySquareReading) {
  const Tables& t = tables();
  EXPECT_EQ(t.instances.size(), 46u);  // 4 + 4 + 8 + 4 + 4 + 4 + 2 + 4 + 4 + 4 + 4
  for (const auto& [p, o] : random_positions(50, 1)) {
    std::vector<int> expected;
    for (const Instance& in : t.instances) {
      const Bits tp = transform<8>(p, in.symmetry), to = transform<8>(o, in.symmetry);
      int idx = 0, weight = 1;
      for (int sq = 0; sq < 64; ++sq)
        if (kPatterns[in.pattern].squares & bit(sq)) {
          idx += weight * ((tp & bit(sq)) ? 1 : (to & bit(sq)) ? 2 : 0);
          weight *= 3;
        }
      expected.push_back(layout().offset[in.pattern] + idx);
    }
    std::vector<int> got;
    for_each_feature(p, o, legal_moves<8>(p, o), legal_moves<8>(o, p),
                     [&](int f) { got.push_back(f); });
    ASSERT_EQ(got.size(), expected.size() + 3);
    got.resize(expected.size());
    EXPECT_EQ(got, expected);
  }
}

// Tied weights make a position and its 8 images evaluate alike.
TEST(OthelloPatterns, TrainedEvaluationIsTheSameOnEverySymmetricImage) {
  const PatternWeights w = fit_patterns(small_set(), 3, 4, 2.0).weights;
  for (const auto& [p, o] : random_positions(200, 2)) {
    const int v = w.evaluate(p, o);
    for (int k = 1; k < 8; ++k)
      ASSERT_EQ(w.evaluate(transform<8>(p, k), transform<8>(o, k)), v) << "symmetry " << k;
  }
}

TEST(OthelloPatterns, FitBeatsTheConstantGuessOnItsPositions) {
  const std::vector<LabelledPosition>& data = small_set();
  const PatternWeights w = fit_patterns(data, 3, 4, 2.0).weights;
  double fitted = 0, zero = 0;
  for (const LabelledPosition& s : data) {
    fitted += std::abs(w.evaluate(s.p, s.o) / double{kUnitsPerDisc} - s.score);
    zero += std::abs(s.score);
  }
  EXPECT_LT(fitted, 0.5 * zero);
}

// The same seed and count give the same labels at 1 and 2 threads, and the same file bytes.
TEST(OthelloPatterns, TrainingIsReproducibleByteForByte) {
  const auto one = labelled_positions(9, 300, 6, 12, 1);
  const auto two = labelled_positions(9, 300, 6, 12, 2);
  ASSERT_EQ(one.size(), 300u);
  ASSERT_EQ(two.size(), 300u);
  for (std::size_t i = 0; i < one.size(); ++i) {
    ASSERT_EQ(one[i].p, two[i].p);
    ASSERT_EQ(one[i].o, two[i].o);
    ASSERT_EQ(one[i].score, two[i].score);
  }
  const auto a = encode_weights(fit_patterns(one, 3, 4, 2.0).weights, {9, 300});
  const auto b = encode_weights(fit_patterns(two, 3, 4, 2.0).weights, {9, 300});
  EXPECT_EQ(a, b);
  const auto other = labelled_positions(10, 300, 6, 12, 1);
  EXPECT_NE(encode_weights(fit_patterns(other, 3, 4, 2.0).weights, {10, 300}), a);
}

// The labels' cache: a chunked set is the direct labelling chunk by chunk (chunk c from the games
// of seed + c * step), the same read back from its files as labelled, and a file is refused for
// other options. One chunk is the unchunked labelling (the committed weights' command).
TEST(OthelloPatterns, LabelCacheHoldsTheDirectLabelsAndRefusesOtherOptions) {
  const zermelo::testing::ScratchDir dir;
  const int chunk = 300, count = chunk + 40;  // a full chunk and a short one
  const LabelSet set{5, count, 4, 6, 3};
  const auto labelled = chunked_labels(dir.str(), set, chunk, 2);
  ASSERT_EQ(labelled.size(), static_cast<std::size_t>(count));
  const auto first = labelled_positions(5, chunk, 4, 6, 1, 3);
  const auto second = labelled_positions(5 + kChunkSeedStep, 40, 4, 6, 1, 3);
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    const LabelledPosition& x = i < first.size() ? first[i] : second[i - first.size()];
    ASSERT_EQ(labelled[i].p, x.p);
    ASSERT_EQ(labelled[i].o, x.o);
    ASSERT_EQ(labelled[i].score, x.score);
  }
  int files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir.str())) {
    ++files;
    // A file is refused for another count, or for the same count with other empties.
    EXPECT_THROW(cached_labels(f.path().string(), {5, 7, 4, 6, 3}, 1), std::runtime_error);
  }
  EXPECT_EQ(files, 2);
  const auto again = chunked_labels(dir.str(), set, chunk, 1);  // read back, no solve
  ASSERT_EQ(again.size(), labelled.size());
  for (std::size_t i = 0; i < again.size(); ++i) ASSERT_EQ(again[i].score, labelled[i].score);
  const auto whole = chunked_labels("", {6, 50, 4, 8, 1}, 0, 1);
  const auto direct = labelled_positions(6, 50, 4, 8, 1);
  ASSERT_EQ(whole.size(), direct.size());
  for (std::size_t i = 0; i < whole.size(); ++i) ASSERT_EQ(whole[i].p, direct[i].p);
}

// A fit from a prior: from all-zero weights it is the plain fit, bit for bit; with a ridge that
// swamps the data it stays at the prior; with an ordinary ridge it moves toward the labels.
TEST(OthelloPatterns, FitFromAPriorShrinksTowardIt) {
  const TrainResult plain = fit_patterns(small_set(), 3, 4, 2.0);
  PatternWeights zero = plain.weights;
  std::fill(zero.weights.begin(), zero.weights.end(), std::int16_t{0});
  EXPECT_EQ(fit_patterns(small_set(), 3, 4, 2.0, &zero).weights.weights, plain.weights.weights);
  const TrainResult stuck = fit_patterns(small_set(), 3, 4, 1e9, &plain.weights);
  EXPECT_EQ(stuck.weights.weights, plain.weights.weights);
  const auto other = labelled_positions(4, 400, 4, 10, 1);
  const TrainResult moved = fit_patterns(other, 3, 4, 2.0, &plain.weights);
  EXPECT_NE(moved.weights.weights, plain.weights.weights);
  const TrainResult kept = fit_patterns(other, 3, 4, 1e9, &plain.weights);
  for (std::size_t k = 0; k < moved.fit_mae.size(); ++k)
    EXPECT_LE(moved.fit_mae[k], kept.fit_mae[k]);
}

TEST(OthelloPatterns, FileRoundTripsAndRefusesADamagedOrMismatchedFile) {
  const PatternWeights w = fit_patterns(small_set(), 3, 4, 2.0).weights;
  const std::vector<std::uint8_t> good = encode_weights(w, {3, 400});
  WeightsProvenance made;
  const PatternWeights back = decode_weights(good.data(), good.size(), "test.bin", &made);
  EXPECT_EQ(back.weights, w.weights);
  EXPECT_EQ(back.phases, 3);
  EXPECT_EQ(back.phase_width, 4);
  EXPECT_EQ(made.seed, 3u);
  EXPECT_EQ(made.positions, 400u);
  EXPECT_EQ(decode_error(good), "");

  auto damaged = good;
  damaged[kWeightsHeaderBytes + 1000] ^= 1;
  EXPECT_NE(decode_error(damaged).find("checksum mismatch"), std::string::npos);
  auto header = good;
  header[48] ^= 1;  // the recorded seed: the checksum covers the header too
  EXPECT_NE(decode_error(header).find("checksum mismatch"), std::string::npos);
  auto version = good;
  version[8] = 7;
  EXPECT_NE(decode_error(version).find("format version 7"), std::string::npos);
  auto set = good;
  set[12] = 9;
  EXPECT_NE(decode_error(set).find("pattern set 9"), std::string::npos);
  auto truncated = good;
  truncated.pop_back();
  EXPECT_NE(decode_error(truncated).find("truncated"), std::string::npos);
  auto magic = good;
  magic[0] = 'X';
  EXPECT_NE(decode_error(magic).find("not a pattern weights file"), std::string::npos);
}

// The weights committed with the source load, and predict exact scores far better than nothing.
TEST(OthelloPatterns, CompiledInWeightsLoadAndPredict) {
  const PatternWeights& w = default_pattern_weights();
  EXPECT_GE(w.phases, 1);
  double err = 0, zero = 0;
  for (const LabelledPosition& s : small_set()) {
    err += std::abs(w.evaluate(s.p, s.o) / double{kUnitsPerDisc} - s.score);
    zero += std::abs(s.score);
  }
  EXPECT_LT(err, 0.6 * zero);
}

// A child evaluated from its parent's indices has the value of a reading from scratch.
TEST(OthelloPatterns, ChildEvaluationMatchesAReadingFromScratch) {
  const PatternWeights& w = default_pattern_weights();
  int children = 0;
  for (const auto& [p, o] : random_positions(200, 3)) {
    if (popcount(p | o) == 64) continue;
    ChildEvaluator from_parent(w, p, o);
    for (Bits m = legal_moves<8>(p, o); m; m &= m - 1, ++children) {
      const int sq = std::countr_zero(m);
      const Bits f = flips<8>(p, o, sq);
      const Bits np = o & ~f, no = p | f | bit(sq);
      const Bits pm = legal_moves<8>(np, no), om = legal_moves<8>(no, np);
      ASSERT_EQ(from_parent.evaluate(sq, f, np, no, pm, om), w.evaluate(np, no, pm, om));
    }
  }
  EXPECT_GT(children, 1000);
}

// Grandchildren evaluated from their grandparent's indices (a move, each reply, the next move)
// have the values of readings from scratch.
TEST(OthelloPatterns, GrandchildEvaluationMatchesAReadingFromScratch) {
  const PatternWeights& w = default_pattern_weights();
  int grandchildren = 0;
  for (const auto& [p, o] : random_positions(200, 4)) {
    GrandchildEvaluator from_above(w, p, o);
    for (Bits m = legal_moves<8>(p, o); m; m &= m - 1) {
      const int sq = std::countr_zero(m);
      const Bits f = flips<8>(p, o, sq);
      const Bits cp = o & ~f, co = p | f | bit(sq);  // the child, o to move
      from_above.enter(sq, f);
      for (Bits r = legal_moves<8>(cp, co); r; r &= r - 1, ++grandchildren) {
        const int rsq = std::countr_zero(r);
        const Bits rf = flips<8>(cp, co, rsq);
        const Bits gp = co & ~rf, go = cp | rf | bit(rsq);
        const Bits pm = legal_moves<8>(gp, go), om = legal_moves<8>(go, gp);
        ASSERT_EQ(from_above.evaluate(rsq, rf, gp, go, pm, om), w.evaluate(gp, go, pm, om));
      }
      from_above.leave();
    }
  }
  EXPECT_GT(grandchildren, 10000);
}
