// Dawson's Kayles: a row of N pins; a move knocks down two adjacent standing pins, and a player
// who cannot move loses. The small game that docs/new-game.md adds step by step: a game module in
// one file, with every REQUIRED hook of include/zermelo/game.hpp and the cheap OPTIONAL ones.
// Its value is known independently: the row splits into independent runs of standing pins, so a
// state is lost for the player to move iff the XOR of its runs' Grundy numbers (octal game 0.07,
// OEIS A002187 shifted by one) is 0; tests/dawson checks every state against that.
// Key: bit i set iff pin i stands (pin 0 leftmost), so the keys are exactly 0 .. 2^N - 1.
#include <cstdio>
#include <stdexcept>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

class DawsonsKayles final : public Game {
 public:
  explicit DawsonsKayles(unsigned pins) : n_(pins) {
    if (n_ < 1 || n_ > 32) throw std::invalid_argument("dawson: need 1..32 pins");
  }

  std::string name() const override { return "dawson"; }
  std::string variant() const override { return std::to_string(n_); }

  // States: every set of standing pins, in increasing key order.
  void enumerate(const std::string&, const std::function<void(StateKey)>& emit) const override {
    for (StateKey k = 0; k < states(); ++k) emit(k);
  }
  std::optional<std::uint64_t> count_states(const std::string&) const override { return states(); }
  bool enumerates_in_key_order() const override { return true; }
  StateKey start() const override { return states() - 1; }  // every pin standing

  // No two adjacent pins stand: the player to move cannot move, and loses at once.
  Value terminal_value(StateKey s) const override {
    return (s & (s >> 1)) == 0 ? Value::loss(0) : Value::unknown();
  }

  // Move i knocks down pins i and i+1.
  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    for (unsigned i = 0; i + 1 < n_; ++i)
      if ((s >> i & 3) == 3) out.push_back(Child::state(s & ~(StateKey{3} << i)));
  }

  // Un-move i stands pins i and i+1 up again: one parent per pair of adjacent fallen pins.
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    for (unsigned i = 0; i + 1 < n_; ++i)
      if ((s >> i & 3) == 0) out.push_back(s | StateKey{3} << i);
  }

  // "II.III": standing pins as I, fallen ones as '.', pin 0 first.
  std::string render(StateKey s) const override {
    std::string row(n_, '.');
    for (unsigned i = 0; i < n_; ++i)
      if (s >> i & 1) row[i] = 'I';
    return row + "\n";
  }
  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    if (text.size() != n_)
      return refuse(std::to_string(text.size()) + " pins, not " + std::to_string(n_), error);
    StateKey key = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == 'I')
        key |= StateKey{1} << i;
      else if (text[i] != '.')
        return refuse("bad character '" + std::string(1, text[i]) + "'", error);
    return key;
  }
  // "3-4": the move knocking down pins 3 and 4 (counted from 1), in successors' order.
  std::string move_name(StateKey s, std::size_t i) const override {
    for (unsigned p = 0; p + 1 < n_; ++p)
      if ((s >> p & 3) == 3 && i-- == 0) return std::to_string(p + 1) + "-" + std::to_string(p + 2);
    return "?";
  }

 private:
  unsigned n_;

  StateKey states() const { return StateKey{1} << n_; }
  std::optional<StateKey> refuse(const std::string& why, std::string* error) const {
    if (error) *error = why + " (write the row as I for a standing pin and . for a fallen one)";
    return std::nullopt;
  }
};

// Option: the number of pins N (default 12).
std::unique_ptr<Game> make_dawson(const std::vector<std::string>& opts) {
  unsigned pins = 12;
  char rest = 0;
  const bool read = opts.empty() || std::sscanf(opts[0].c_str(), "%u%c", &pins, &rest) == 1;
  if (opts.size() > 1 || !read)
    throw std::invalid_argument("dawson: the one option is the number of pins, e.g. 12");
  return std::make_unique<DawsonsKayles>(pins);
}

}  // namespace
}  // namespace zermelo

ZERMELO_REGISTER_GAME(dawson, "Dawson's Kayles, N pins in a row (default 12)", zermelo::make_dawson)
