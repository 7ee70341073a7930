// See include/zermelo/engine/human_play.hpp.
#include "zermelo/engine/human_play.hpp"

#include <istream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "zermelo/engine/state_text.hpp"

namespace zermelo {
namespace {

std::string trimmed(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t\r\n") - first + 1);
}

// What became of one of the person's turns.
enum class Reply { kMoved, kTookBack, kQuit, kEndOfInput };

// One game: where it stands (the state, the moves kept, the person's turns for undo) and the
// dialogue that moves it on.
class Session {
 public:
  Session(const Game& game, ValuesLookup& values, StateKey start, const HumanPlayOptions& options,
          std::istream& in, std::ostream& out)
      : game_(game), values_(values), options_(options), in_(in), out_(out), state_(start) {}

  // Step 0: greet. Step 1: until the game is over, the rules' end checked, then the side to
  // move moves (the person may take back, quit or leave). Step 2: the final board and result.
  HumanPlayResult run() {
    greet();
    while (!over_) {
      if (ends_by_the_rules()) break;
      if (!persons_turn()) {
        engine_moves();
        continue;
      }
      const Reply reply = person_moves();
      if (reply == Reply::kQuit || reply == Reply::kEndOfInput) return left(reply);
    }
    return game_over();
  }

 private:
  struct Turn {
    StateKey state;
    std::size_t moves;  // how many moves were played before it
  };

  bool persons_turn() const { return (moves_.size() % 2 == 0) == options_.person_moves_first; }
  // A value for the player to move after `plies` moves, from the person's side.
  Value for_person(Value v, std::size_t plies) const {
    return (plies % 2 == 0) == options_.person_moves_first ? v : v.for_opponent();
  }

  void greet() {
    out_ << "You play " << (options_.person_moves_first ? "first" : "second")
         << " against Zermelo's perfect player (" << game_.name();
    for (const std::string& option : game_.options()) out_ << " " << option;
    out_ << ").\nType a move as listed, or: hint, undo, quit.\n";
  }

  // The state's own end, or the ply limit (a draw).
  bool ends_by_the_rules() {
    const Value rule = game_.terminal_value(state_);
    if (rule.is_known()) result_ = for_person(rule, moves_.size()), over_ = true;
    if (!over_ && moves_.size() >= options_.max_plies) result_ = Value::draw(), over_ = true;
    return over_;
  }

  // Plays move i of kids: a move that ends the game at once leaves the state as it was.
  void play(const std::vector<Child>& kids, std::size_t i) {
    moves_.push_back(game_.move_name(state_, i));
    if (kids[i].is_terminal())
      result_ = for_person(kids[i].terminal, moves_.size()), over_ = true, ending_move_ = true;
    else
      state_ = kids[i].key;
  }

  // The perfect move from here and its value for the player making it.
  std::pair<std::size_t, Value> best_move(const std::vector<Child>& kids) {
    const std::size_t i = perfect_move(values_, kids);
    if (i == kids.size())
      throw std::runtime_error(game_.name() + ": a move from state " + std::to_string(state_) +
                               " has no solved value");
    return {i, child_value(values_, kids[i]).parent_via()};
  }

  void engine_moves() {
    game_.successors(state_, kids_);
    const auto [i, value] = best_move(kids_);
    out_ << "Zermelo plays " << game_.move_name(state_, i) << " (" << value.to_string() << ")\n";
    play(kids_, i);
  }

  // Shows the board and reads lines until one is a move, or the person takes back, quits or
  // leaves.
  Reply person_moves() {
    if (turns_.empty() || turns_.back().moves != moves_.size())
      turns_.push_back({state_, moves_.size()});
    game_.successors(state_, kids_);
    out_ << "\n" << game_.render(state_) << "Your move: " << legal_moves_text(game_, state_);
    for (std::string line;;) {
      out_ << "\n> " << std::flush;
      if (!std::getline(in_, line)) return Reply::kEndOfInput;
      const std::string said = trimmed(line);
      if (said.empty()) continue;
      if (said == "quit") return Reply::kQuit;
      if (said == "undo" && take_back()) return Reply::kTookBack;
      if (said == "undo") continue;
      if (said == "hint") {
        const auto [i, value] = best_move(kids_);
        out_ << "Hint: " << game_.move_name(state_, i) << " (" << value.to_string() << ")";
        continue;
      }
      if (read_and_play(said)) return Reply::kMoved;
    }
  }

  bool read_and_play(const std::string& said) {
    try {
      play(kids_, read_move(game_, state_, said));
      return true;
    } catch (const std::invalid_argument& e) {
      out_ << e.what();
      return false;
    }
  }

  // Back to the person's previous turn: their last move and the engine's reply taken back.
  bool take_back() {
    if (turns_.size() < 2) {
      out_ << "Nothing to take back yet.";
      return false;
    }
    turns_.pop_back();
    out_ << "Took back:";
    for (std::size_t m = turns_.back().moves; m < moves_.size(); ++m) out_ << " " << moves_[m];
    out_ << "\n";
    state_ = turns_.back().state;
    moves_.resize(turns_.back().moves);
    return true;
  }

  HumanPlayResult left(Reply reply) {
    if (reply == Reply::kQuit)
      out_ << "You quit after " << moves_.size() << " plies.\n";
    else
      out_ << "\nEnd of input: you left the game after " << moves_.size() << " plies.\n";
    return {reply == Reply::kQuit ? HumanPlayEnd::kQuit : HumanPlayEnd::kEndOfInput, moves_,
            Value::unknown()};
  }

  HumanPlayResult game_over() {
    out_ << "\n" << game_.render(state_);
    if (ending_move_) out_ << "The move " << moves_.back() << " ends the game.\n";
    out_ << "Game over after " << moves_.size() << " plies: "
         << (result_.is_win()    ? "you win."
             : result_.is_loss() ? "Zermelo wins."
                                 : "a draw.")
         << "\n";
    return {HumanPlayEnd::kGameOver, moves_, result_};
  }

  const Game& game_;
  ValuesLookup& values_;
  const HumanPlayOptions options_;
  std::istream& in_;
  std::ostream& out_;
  StateKey state_;
  std::vector<Child> kids_;  // of state_, on the side to move's turn
  std::vector<std::string> moves_;
  std::vector<Turn> turns_;
  bool over_ = false, ending_move_ = false;
  Value result_ = Value::unknown();  // for the person, once over_
};

}  // namespace

HumanPlayResult play_with_person(const Game& game, ValuesLookup& values, StateKey start,
                                 const HumanPlayOptions& options, std::istream& in,
                                 std::ostream& out) {
  return Session(game, values, start, options, in, out).run();
}

}  // namespace zermelo
