// Proof trees: the prover's value against plain minimax and the exact solver, the checker accepts
// the proofs it writes and rejects corrupted ones (a dropped AND child, a wrong leaf bound, an OR
// move that leads elsewhere, a flipped byte), and the evaluation fit beats the compiled weights on
// its own sample.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tests/othello/random_play.hpp"
#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/patterns.hpp"
#include "zermelo/games/othello/perft.hpp"
#include "zermelo/games/othello/proof.hpp"
#include "zermelo/games/othello/solver.hpp"
#include "zermelo/io/run_file.hpp"

using namespace zermelo::othello;
namespace fs = std::filesystem;

namespace {

// A scratch directory for this process's proof files, removed when the tests end.
struct ScratchDir {
  fs::path path =
      fs::temp_directory_path() / ("zermelo_othello_proof_" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

fs::path temp_file(const std::string& name) {
  static const ScratchDir dir;
  return dir.path / name;
}

std::vector<ProofRecord> read_records(const fs::path& path) {
  zermelo::RunReader reader(path.string());
  std::vector<ProofRecord> out;
  ProofRecord r;
  while (reader.next(r)) out.push_back(r);
  return out;
}

void write_records(const fs::path& path, const std::vector<ProofRecord>& records) {
  zermelo::RunOptions ro;
  ro.record_size = sizeof(ProofRecord);
  ro.record_type = kProofRecordType;
  zermelo::RunWriter w(path.string(), ro);
  for (const ProofRecord& r : records) w.push(r);
  w.finish();
}

// The 4×4 start's proof, written once for all tests.
const fs::path& four_by_four_proof() {
  static const fs::path path = [] {
    fs::path p = temp_file("start4.proof");
    WeakSolveOptions opt;
    opt.leaf_empties = 6;
    opt.tt_bits = 14;
    opt.proof_path = p.string();
    const WeakSolveResult r =
        weak_solve<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite, opt);
    EXPECT_EQ(r.value, -10);
    return p;
  }();
  return path;
}

// Index of the first node record for which pred(node, its edge count) holds, or -1.
template <class Pred>
long find_node(const std::vector<ProofRecord>& recs, Pred pred) {
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].tag == ProofRecord::kEdge) continue;
    std::size_t edges = 0;
    while (i + 1 + edges < recs.size() && recs[i + 1 + edges].tag == ProofRecord::kEdge) ++edges;
    if (pred(recs[i], edges)) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace

TEST(OthelloProof, FourByFourStartProvedAndChecked) {
  std::uint64_t nodes = 0;
  const int expected = minimax<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite, &nodes);
  ASSERT_EQ(expected, -10);
  const ProofCheck c = check_proof(four_by_four_proof().string(), 14);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.size, 4);
  ASSERT_EQ(c.roots.size(), 2u);
  for (const ProofRoot& r : c.roots) {
    EXPECT_TRUE(r.is_start);
    EXPECT_EQ(r.bound, expected);
  }
  EXPECT_NE(c.roots[0].goal, c.roots[1].goal);
  EXPECT_GT(c.expanded, 0u);
  EXPECT_GT(c.leaves, 0u);
  EXPECT_EQ(c.unreachable, 0u);
}

TEST(OthelloProof, EveryLeafLayerOnFourByFourGivesMinimaxValue) {
  for (int leaf = 0; leaf <= 12; leaf += 3) {
    WeakSolveOptions opt;
    opt.leaf_empties = leaf;
    opt.tt_bits = 12;
    opt.predict_depth = 2;
    const WeakSolveResult r =
        weak_solve<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite, opt);
    EXPECT_EQ(r.value, -10) << "leaf layer " << leaf;
    if (leaf == 12) {
      EXPECT_EQ(r.internal_nodes, 0u);  // the root is the one leaf
    }
  }
}

TEST(OthelloProof, SolverLedSearchOnFourByFourGivesMinimaxValueAtEveryLeafLayer) {
  for (int leaf = 0; leaf <= 12; leaf += 3) {
    WeakSolveOptions opt;
    opt.leaf_empties = leaf;
    opt.tt_bits = 12;
    opt.search = ProofSearch::kSolver;
    opt.proof_path = temp_file("walk4_" + std::to_string(leaf) + ".proof").string();
    const WeakSolveResult r =
        weak_solve<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite, opt);
    EXPECT_EQ(r.value, -10) << "leaf layer " << leaf;
    const ProofCheck c = check_proof(opt.proof_path, 12);
    EXPECT_TRUE(c.ok) << "leaf layer " << leaf << ": " << c.error;
  }
}

// A random 6×6 position with `empties` empty squares where the side to move has a move.
std::pair<Bits, Bits> random_six_by_six(std::mt19937_64& rng, int empties) {
  for (;;) {
    Bits p = Geometry<6>::kStartBlack, o = Geometry<6>::kStartWhite;
    bool over = false;
    while (!over && Geometry<6>::kSquares - popcount(p | o) > empties) {
      const Bits moves = legal_moves<6>(p, o);
      if (!moves) {
        over = !legal_moves<6>(o, p);
        std::swap(p, o);
        continue;
      }
      test_support::play_random_move<6>(rng, moves, p, o);
    }
    if (!over && legal_moves<6>(p, o)) return {p, o};
  }
}

TEST(OthelloProof, SixBySixEndgamesProvedAndChecked) {
  std::mt19937_64 rng(66);
  int done = 0;
  while (done < 3) {
    const auto [p, o] = random_six_by_six(rng, 16);
    SolveOptions so;
    so.tt_bits = 16;
    const int exact = solve<6>(p, o, so).score;
    const fs::path path = temp_file("endgame6_" + std::to_string(done) + ".proof");
    WeakSolveOptions opt;
    opt.leaf_empties = 10;
    opt.tt_bits = 16;
    opt.proof_path = path.string();
    opt.threads = done == 0 ? 2 : 1;  // the batch solved by two workers once
    const WeakSolveResult r = weak_solve<6>(p, o, opt);
    EXPECT_EQ(r.value, exact);
    const ProofCheck c = check_proof(path.string(), 16);
    ASSERT_TRUE(c.ok) << c.error;
    ASSERT_EQ(c.roots.size(), 2u);
    EXPECT_EQ(c.roots[0].bound, exact);
    EXPECT_FALSE(c.roots[0].is_start);
    EXPECT_EQ(c.roots[0].p, canonical<6>(p, o).p);
    ++done;
  }
}

// A search stopped part way (as a kill would stop it) resumes from its journal: the solves it had
// run are replayed, not run again, and the resumed proof has the exact value and checks.
TEST(OthelloProof, StoppedSearchResumesFromItsJournal) {
  std::mt19937_64 rng(2026);
  for (const ProofSearch search : {ProofSearch::kSolver, ProofSearch::kRounds}) {
    const auto [p, o] = random_six_by_six(rng, 18);
    SolveOptions so;
    so.tt_bits = 16;
    const int exact = solve<6>(p, o, so).score;
    const std::string tag = search == ProofSearch::kSolver ? "solver" : "rounds";
    const fs::path proof = temp_file("resumed_" + tag + ".proof");
    WeakSolveOptions opt;
    opt.leaf_empties = 10;
    opt.tt_bits = 16;
    opt.search = search;
    opt.threads = search == ProofSearch::kRounds ? 2 : 1;
    opt.proof_path = proof.string();
    opt.stop_after_solves = 20;
    EXPECT_THROW(weak_solve<6>(p, o, opt), WeakSolveStopped) << tag;
    const fs::path journal = proof.string() + ".journal";
    ASSERT_TRUE(fs::exists(journal)) << tag;
    EXPECT_FALSE(fs::exists(proof)) << tag;

    opt.stop_after_solves = 0;
    const WeakSolveResult r = weak_solve<6>(p, o, opt);
    EXPECT_EQ(r.value, exact) << tag;
    EXPECT_GE(r.resumed_solves, 20u) << tag;  // two workers may pass the limit by one
    EXPECT_LE(r.resumed_solves, 21u) << tag;
    EXPECT_GT(r.leaf_solves + r.interior_solves, r.resumed_solves) << tag;
    EXPECT_FALSE(fs::exists(journal)) << tag << ": the journal outlived its proof";
    const ProofCheck c = check_proof(proof.string(), 16);
    EXPECT_TRUE(c.ok) << tag << ": " << c.error;
  }
}

// A 6×6 solver-led walk from 20 empties with leaves at 12, beating every millisecond.
WeakSolveOptions beating_walk() {
  WeakSolveOptions opt;
  opt.leaf_empties = 12;
  opt.tt_bits = 16;
  opt.search = ProofSearch::kSolver;
  opt.heartbeat_ms = 1;
  return opt;
}

// The solver-led search beats while one solve runs long: the progress callback hears of a solve
// in progress (its empties and how long it has run) between the walk's own lines.
TEST(OthelloProof, LongSolveIsReportedWhileItRuns) {
  std::mt19937_64 rng(11);
  const auto [p, o] = random_six_by_six(rng, 20);
  const WeakSolveOptions opt = beating_walk();
  int beats = 0, largest = 0;
  const WeakSolveResult r = weak_solve<6>(p, o, opt, [&](const WeakSolveProgress& pr) {
    if (pr.solving_empties == 0) return;
    ++beats;
    largest = std::max(largest, pr.solving_empties);
    EXPECT_GE(pr.solving_seconds, 0.001);
  });
  EXPECT_GT(r.interior_solves, 0u);
  EXPECT_GT(beats, 0);
  EXPECT_LE(largest, 20);
  EXPECT_GT(largest, opt.leaf_empties);  // an OR node's solve above the leaves beat
}

// A resumed walk's beats count the answers replayed before the running solve: the heartbeat's
// line must not hold the count of the walk's last line, two seconds and many replays ago.
TEST(OthelloProof, BeatsAfterAResumeCountTheReplayedAnswers) {
  std::mt19937_64 rng(11);
  const auto [p, o] = random_six_by_six(rng, 20);
  WeakSolveOptions opt = beating_walk();
  opt.journal_path = temp_file("beats.journal").string();
  fs::remove(opt.journal_path);
  opt.stop_after_solves = 6;
  EXPECT_THROW(weak_solve<6>(p, o, opt), WeakSolveStopped);
  opt.stop_after_solves = 0;
  int beats = 0;
  const WeakSolveResult r = weak_solve<6>(p, o, opt, [&](const WeakSolveProgress& pr) {
    if (pr.solving_empties == 0) return;
    ++beats;
    EXPECT_EQ(pr.resumed, 6u);  // the walk asks again in the same order: all six come first
    EXPECT_GE(pr.leaves_solved, 6u);
  });
  EXPECT_EQ(r.resumed_solves, 6u);
  EXPECT_GT(beats, 0);
}

// A journal answers only the weak-solve of its own root.
TEST(OthelloProof, JournalOfAnotherRootIsRefused) {
  std::mt19937_64 rng(7);
  const auto [p, o] = random_six_by_six(rng, 16);
  const auto [q, r] = random_six_by_six(rng, 15);
  WeakSolveOptions opt;
  opt.leaf_empties = 10;
  opt.tt_bits = 14;
  opt.search = ProofSearch::kSolver;
  opt.journal_path = temp_file("other_root.journal").string();
  opt.stop_after_solves = 3;
  EXPECT_THROW(weak_solve<6>(p, o, opt), WeakSolveStopped);
  try {
    weak_solve<6>(q, r, opt);
    FAIL() << "the journal of another root was replayed";
  } catch (const WeakSolveStopped&) {
    FAIL() << "the journal of another root was replayed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another job"), std::string::npos) << e.what();
  }
}

TEST(OthelloProof, WrongValueIsRefuted) {
  WeakSolveOptions opt;
  opt.leaf_empties = 6;
  opt.value = 0;  // the 4×4 start is -10, not a draw
  EXPECT_THROW(weak_solve<4>(Geometry<4>::kStartBlack, Geometry<4>::kStartWhite, opt),
               std::runtime_error);
}

TEST(OthelloProof, DroppedAndChildIsRejected) {
  auto recs = read_records(four_by_four_proof());
  const long i = find_node(recs, [](const ProofRecord& r, std::size_t edges) {
    return r.kind == ProofRecord::kExpanded && r.goal == static_cast<std::uint8_t>(Goal::kAtMost) &&
           edges >= 2;
  });
  ASSERT_GE(i, 0);
  const int dropped = recs[static_cast<std::size_t>(i) + 2].move;
  recs.erase(recs.begin() + i + 2);
  const fs::path bad = temp_file("dropped.proof");
  write_records(bad, recs);
  const ProofCheck c = check_proof(bad.string(), 14);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("lacks move " + square_name(dropped)), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("node #"), std::string::npos) << c.error;
}

TEST(OthelloProof, WrongLeafBoundIsRejected) {
  auto recs = read_records(four_by_four_proof());
  // A leaf claiming more than its exact value (minimax) can give.
  const long i = find_node(recs, [](const ProofRecord& r, std::size_t) {
    return r.kind == ProofRecord::kLeaf && r.goal == static_cast<std::uint8_t>(Goal::kAtLeast) &&
           minimax<4>(r.p, r.o) < 16;
  });
  ASSERT_GE(i, 0);
  ProofRecord& leaf = recs[static_cast<std::size_t>(i)];
  leaf.bound = static_cast<std::int8_t>(minimax<4>(leaf.p, leaf.o) + 2);
  const fs::path bad = temp_file("leaf.proof");
  write_records(bad, recs);
  const ProofCheck c = check_proof(bad.string(), 14);
  EXPECT_FALSE(c.ok);
  long node_index = 0;  // the checker numbers node records only
  for (long j = 0; j < i; ++j)
    node_index += recs[static_cast<std::size_t>(j)].tag != ProofRecord::kEdge;
  EXPECT_NE(c.error.find("node #" + std::to_string(node_index) + " "), std::string::npos)
      << c.error;
  EXPECT_NE(c.error.find("leaf does not hold"), std::string::npos) << c.error;
}

TEST(OthelloProof, OrMoveToAnotherPositionIsRejected) {
  auto recs = read_records(four_by_four_proof());
  // Another legal move of an OR node whose canonical child differs from the recorded one.
  auto other_move = [](const ProofRecord& node, int move) {
    const Bits g = flips<4>(node.p, node.o, move);
    const PosKey recorded = canonical<4>(node.o & ~g, node.p | g | bit(move));
    for (Bits m = legal_moves<4>(node.p, node.o); m; m &= m - 1) {
      const int sq = std::countr_zero(m);
      const Bits f = flips<4>(node.p, node.o, sq);
      if (canonical<4>(node.o & ~f, node.p | f | bit(sq)) != recorded) return sq;
    }
    return -1;
  };
  long i = -1;
  for (std::size_t j = 0; j + 1 < recs.size() && i < 0; ++j)
    if (recs[j].tag != ProofRecord::kEdge && recs[j].kind == ProofRecord::kExpanded &&
        recs[j].goal == static_cast<std::uint8_t>(Goal::kAtLeast) && recs[j + 1].move >= 0 &&
        other_move(recs[j], recs[j + 1].move) >= 0)
      i = static_cast<long>(j);
  ASSERT_GE(i, 0);
  ProofRecord& edge = recs[static_cast<std::size_t>(i) + 1];
  edge.move = static_cast<std::int8_t>(other_move(recs[static_cast<std::size_t>(i)], edge.move));
  const fs::path bad = temp_file("ormove.proof");
  write_records(bad, recs);
  const ProofCheck c = check_proof(bad.string(), 14);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("not to the position after the move"), std::string::npos) << c.error;
}

TEST(OthelloProof, CorruptFileIsRejectedByChecksum) {
  const fs::path bad = temp_file("flipped.proof");
  fs::copy_file(four_by_four_proof(), bad, fs::copy_options::overwrite_existing);
  const auto size = fs::file_size(bad);
  std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(size / 3));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x5a);
  f.seekp(static_cast<std::streamoff>(size / 3));
  f.write(&c, 1);
  f.close();
  EXPECT_THROW(check_proof(bad.string(), 14), zermelo::RunFileError);
}

TEST(OthelloProof, PerfectPlayerKeepsTheProvedBoundAgainstRandomPlay) {
  for (const bool player_white : {false, true}) {
    ProofPlayer<4> player(four_by_four_proof().string(), 12);
    ASSERT_TRUE(player.black_guarantee && player.white_guarantee);
    EXPECT_EQ(*player.black_guarantee, -10);
    EXPECT_EQ(*player.white_guarantee, 10);
    std::mt19937_64 rng(player_white ? 5 : 6);
    for (int game = 0; game < 40; ++game) {
      Bits p = Geometry<4>::kStartBlack, o = Geometry<4>::kStartWhite;
      bool white = false;
      while (legal_moves<4>(p, o) || legal_moves<4>(o, p)) {
        const Bits moves = legal_moves<4>(p, o);
        if (white == player_white) {
          const int sq = player.choose(p, o);
          if (sq == kPass) {
            ASSERT_EQ(moves, 0u);
            std::swap(p, o);
          } else {
            ASSERT_TRUE(moves & bit(sq));
            play<4>(p, o, sq);
          }
        } else if (moves) {
          test_support::play_random_move<4>(rng, moves, p, o);
        } else {
          std::swap(p, o);
        }
        white = !white;
      }
      const int score = (white == player_white ? 1 : -1) * final_score<4>(p, o);
      EXPECT_GE(score, player_white ? 10 : -10) << "game " << game;
    }
    EXPECT_GT(player.moves_from_proof, 0u);
  }
}

TEST(OthelloEval, LeastSquaresFitBeatsCompiledWeightsOnItsSample) {
  const EvalFit fit = fit_evaluation<4>(400, 3, 9, 7);
  EXPECT_EQ(fit.samples, 400);
  EXPECT_LE(fit.rms_error, fit.default_rms_error + 1e-9);
  EXPECT_GT(fit.sign_agreement, 0.5);
  // The shallow search sees the end of a 4×4 game from 6 empties: exact (in 1/100 disc).
  Bits p = Geometry<4>::kStartBlack, o = Geometry<4>::kStartWhite;
  EXPECT_EQ(predict<4>(p, o, 12), 100 * minimax<4>(p, o));
}

// 8×8 endgames proved with either evaluation ordering the prover: the value is the exact solve's
// whichever predicts, and the pattern prediction one ply deep is, by hand, the best child's
// negated pattern evaluation (in 1/100 disc).
TEST(OthelloProof, EightByEightEndgamesProvedWithEitherPredictor) {
  std::mt19937_64 rng(88);
  const auto& w = zermelo::othello::patterns::default_pattern_weights();
  for (int done = 0; done < 3;) {
    Bits p = Geometry<8>::kStartBlack, o = Geometry<8>::kStartWhite;
    while (64 - popcount(p | o) > 15 && (legal_moves<8>(p, o) || legal_moves<8>(o, p))) {
      const Bits moves = legal_moves<8>(p, o);
      if (moves)
        zermelo::othello::test_support::play_random_move<8>(rng, moves, p, o);
      else
        std::swap(p, o);
    }
    const Bits moves = legal_moves<8>(p, o);
    if (!moves) continue;
    int by_hand = -1000000;
    bool a_child_passes = false;
    for (Bits m = moves; m; m &= m - 1) {
      Bits np = p, no = o;
      play<8>(np, no, std::countr_zero(m));  // now np is the opponent to move
      a_child_passes |= !legal_moves<8>(np, no);
      by_hand = std::max(by_hand, -(w.evaluate(np, no) * 100 / 128));
    }
    if (a_child_passes) continue;  // the search looks past a pass; the sum above does not
    EXPECT_EQ(predict<8>(p, o, 1, Predictor::kPatterns), by_hand);
    SolveOptions so;
    so.tt_bits = 18;
    const int exact = solve<8>(p, o, so).score;
    for (Predictor predictor : {Predictor::kLinear, Predictor::kPatterns}) {
      WeakSolveOptions opt;
      opt.leaf_empties = 11;
      opt.tt_bits = 16;
      opt.predictor = predictor;
      EXPECT_EQ(weak_solve<8>(p, o, opt).value, exact) << predictor_name(predictor);
    }
    // The solver-led search proves the same value, and the checker accepts its proof.
    WeakSolveOptions opt;
    opt.leaf_empties = 11;
    opt.tt_bits = 16;
    opt.search = ProofSearch::kSolver;
    opt.proof_path = temp_file("walk8_" + std::to_string(done) + ".proof").string();
    const WeakSolveResult walked = weak_solve<8>(p, o, opt);
    EXPECT_EQ(walked.value, exact);
    EXPECT_EQ(walked.failed_predictions, 0u);
    EXPECT_GT(walked.interior_solves, 0u);
    const ProofCheck c = check_proof(opt.proof_path, 16);
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_EQ(c.leaves, walked.leaves);
    ++done;
  }
}
