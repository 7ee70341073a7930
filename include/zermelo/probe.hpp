// The probe API: what another program needs to read a solved game, and nothing else.
//
// Syzygy tablebases are used everywhere because a few lines of Fathom probe them; this is the same
// for Zermelo's work dirs. A Database opens a solved work dir (its game and options come from the
// manifest, every values run checked against it), answers the value of a state given as text
// ("start" too) or as a key, the values of all its moves, the best move and the perfect line, and
// closes. Errors are exceptions (probe::Error, with a code and a message); nothing aborts. Every
// const member may be called from several threads at once. The header uses only the standard
// library, so that it stays stable while the engine behind it changes (see probe.h for C).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zermelo::probe {

// Why a call failed; the same numbers as probe.h's zermelo_status.
enum class ErrorCode {
  kOpen = 1,      // the work dir holds no finished, intact solve (or it is being written)
  kBadState = 2,  // a state's text that the game cannot read
  kNoValue = 3,   // a state the database holds no value for (another tier, not a state)
  kClosed = 4,    // the database was closed
  kInternal = 5,  // anything else (a damaged block, out of memory...)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

enum class Outcome { kUnknown = 0, kWin = 1, kLoss = 2, kDraw = 3 };

// A value for the player to move: a win or a loss in `plies` plies (with best play on both
// sides: the winner's fastest, the loser's slowest), or a draw.
struct Value {
  Outcome outcome = Outcome::kUnknown;
  std::uint32_t plies = 0;
  std::string text() const;  // "win in 5", "loss in 0", "draw", "unknown", as `zermelo query`
  friend bool operator==(const Value&, const Value&) = default;
};

// One legal move, in the game's move order.
struct Move {
  std::string name;        // as the game names it, e.g. "b2" or "a4-a3"
  Value value;             // of playing it, for the player who plays it
  bool ends_game = false;  // the move ends the game at once (no state after it)
  std::uint64_t key = 0;   // of the state after it (0 when it ends the game)
};

// One state of a perfect line.
struct Step {
  std::uint64_t key = 0;
  Value value;       // of this state, for the player to move
  std::string move;  // the move played from it: "" at the end, unless that move ends the game
};

class Database {
 public:
  // Opens a solved work dir for reading (a shared lock on it is held until close).
  explicit Database(const std::string& work_dir);
  ~Database();
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;

  std::string game() const;                  // e.g. "onitama"
  std::vector<std::string> options() const;  // as given to solve, e.g. {"3x4", "boar"}
  std::string work_dir() const;

  // A state's key from its text in the game's notation, or "start".
  std::uint64_t key(const std::string& state) const;
  std::string render(std::uint64_t key) const;  // a diagram of the state, several lines

  // A key is checked against the values runs before the game decodes it: a key that is no state
  // of the solved game is ErrorCode::kNoValue, never a crash.

  Value value(std::uint64_t key) const;
  Value value(const std::string& state) const { return value(key(state)); }
  std::vector<Move> moves(std::uint64_t key) const;
  std::vector<Move> moves(const std::string& state) const { return moves(key(state)); }
  // What a perfect player plays (the first of the best moves); none if the state has no move.
  std::optional<Move> best_move(std::uint64_t key) const;
  std::optional<Move> best_move(const std::string& state) const { return best_move(key(state)); }
  // Perfect play from the state (each side's best_move) until the game ends, a state repeats (a
  // drawn line that cycles: the repeated state is the last step), or max_steps moves.
  std::vector<Step> line(std::uint64_t key, std::size_t max_steps = 10000) const;
  std::vector<Step> line(const std::string& state, std::size_t max_steps = 10000) const {
    return line(key(state), max_steps);
  }

  // The solved tiers, bottom-up ("all" for a game of one tier); ValuesRun reads one whole.
  std::vector<std::string> tiers() const;

  // Every later call throws ErrorCode::kClosed; the files and the lock are released when the
  // probes already under way (on other threads) end.
  void close();

 private:
  struct Impl;
  struct Held;  // the Impl, shared with the probes under way, and the mutex close takes
  std::shared_ptr<const Impl> impl() const;  // kept by a call for its length
  std::unique_ptr<Held> held_;
  friend class ValuesRun;
};

// The values run of one solved tier of a Database, read block by block in key order: every
// state's key and value, for analysis. The run opened must still be the one the work dir's
// manifest records; it stays readable after the database is closed.
class ValuesRun {
 public:
  ValuesRun(const Database& db, const std::string& tier);
  ~ValuesRun();
  ValuesRun(ValuesRun&&) noexcept;
  ValuesRun& operator=(ValuesRun&&) noexcept;
  std::uint64_t records() const;
  std::size_t blocks() const;
  // Block b's keys and raw values (Value packing: 0 unknown, 1 draw, 2+2k win in k, 3+2k loss
  // in k); the vectors are replaced.
  void read_block(std::size_t b, std::vector<std::uint64_t>& keys,
                  std::vector<std::uint16_t>& raw_values) const;
  static Value decode(std::uint16_t raw_value);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zermelo::probe
