// The weak-solve's journal: every exact solve the prover asks for, logged as it is answered, so a
// killed proof search resumes with the same command instead of starting over.
//
// Why: a proof from early in the game (Takizawa's line from move 28) takes hours of exact solves.
// Each answer is a fact about one position (its value against a threshold, or within a window),
// true whatever root goal, leaf layer or search asked for it, so a journal replays into any
// weak-solve of the same root on the same board; the walk above the solves is cheap and is simply
// run again. The log (io/record_log.hpp) is checked to be of this root and board before a single
// answer is used.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/games/othello/solver.hpp"
#include "zermelo/io/record_log.hpp"

namespace zermelo::othello {

// What the prover asked the solver.
enum class JournalQuery : std::uint8_t {
  kExceeds = 0,  // EndgameSolver::exceeds(p, o, threshold): is the value above the threshold?
  kWindow = 1,   // EndgameSolver::solve(p, o, bound, bound)
};

// One answer, as logged (32 bytes).
struct JournalRecord {
  std::uint64_t p = 0, o = 0;  // the canonical position asked about
  std::uint64_t nodes = 0;     // the solve's exact-search nodes
  std::uint8_t query = 0;      // JournalQuery
  std::int8_t threshold = 0;   // kExceeds: the threshold; kWindow: the bound
  std::int8_t score = 0;       // SolveResult::score
  std::int8_t outside = 0;     // SolveResult::outside
  std::int8_t best_move = 0;   // SolveResult::best_move
  std::uint8_t pad[3] = {0, 0, 0};
};
static_assert(sizeof(JournalRecord) == 32);

class ProofJournal {
 public:
  // Opens or creates the journal of the weak-solve of root (p, o) on the N×N board.
  ProofJournal(const std::string& path, int n, Bits root_p, Bits root_o)
      : log_(path, identity(n, root_p, root_o), sizeof(JournalRecord)) {
    const auto& bytes = log_.existing();
    for (std::size_t i = 0; i < log_.existing_count(); ++i) {
      JournalRecord r;
      std::memcpy(&r, bytes.data() + i * sizeof r, sizeof r);
      answers_[{r.p, r.o, r.query, r.threshold}] = r;
    }
  }

  // The logged answer to this question, if the journal has one.
  std::optional<SolveResult> find(JournalQuery q, Bits p, Bits o, int threshold) const {
    const auto it =
        answers_.find({p, o, static_cast<std::uint8_t>(q), static_cast<std::int8_t>(threshold)});
    if (it == answers_.end()) return std::nullopt;
    SolveResult r;
    r.score = it->second.score;
    r.outside = it->second.outside;
    r.best_move = it->second.best_move;
    r.nodes = it->second.nodes;
    return r;
  }

  // Logs a fresh answer; safe from the batch's threads.
  void record(JournalQuery q, Bits p, Bits o, int threshold, const SolveResult& r) {
    JournalRecord rec;
    rec.p = p;
    rec.o = o;
    rec.nodes = r.nodes;
    rec.query = static_cast<std::uint8_t>(q);
    rec.threshold = static_cast<std::int8_t>(threshold);
    rec.score = static_cast<std::int8_t>(r.score);
    rec.outside = static_cast<std::int8_t>(r.outside);
    rec.best_move = static_cast<std::int8_t>(r.best_move);
    log_.append(&rec);
  }

  std::size_t loaded() const { return answers_.size(); }
  const std::string& path() const { return log_.path(); }
  void remove() { log_.remove(); }  // the proof is written: the journal has served

 private:
  struct Key {
    std::uint64_t p, o;
    std::uint8_t query;
    std::int8_t threshold;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()(k.p * 0x9E3779B97F4A7C15ULL ^ k.o) ^
             (std::size_t{k.query} << 8 | static_cast<std::uint8_t>(k.threshold));
    }
  };

  // The job a journal belongs to: its board size and root (the answers hold for any goal).
  static std::string identity(int n, Bits p, Bits o) {
    char text[96];
    std::snprintf(text, sizeof text, "othello weak-solve journal v1, %dx%d, root %016llx %016llx",
                  n, n, static_cast<unsigned long long>(p), static_cast<unsigned long long>(o));
    return text;
  }

  RecordLog log_;
  std::unordered_map<Key, JournalRecord, KeyHash> answers_;
};

}  // namespace zermelo::othello
