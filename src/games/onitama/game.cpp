// Onitama behind the generic Game interface, registered as `onitama` with options
// {board, cards}, e.g. {"3x4", "boar"}. The enumerated states are every legal state of the key
// encoding (Rules::is_legal), reachable from the start or not, streamed tier by tier with nothing
// held in RAM, so the out-of-core engine can take boards of billions of states. Unreachable
// states are solved too; their values are correct for the game played from them.
//
// Tiers: captures never come back, so the numbers of Red and Blue students split the states into
// tiers "r<R>b<B>"; a move stays in its tier or takes one student (one tier down).
#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>

#include "zermelo/game.hpp"
#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {
namespace {

class OnitamaGame final : public Game {
 public:
  explicit OnitamaGame(Rules rules) : rules_(std::move(rules)) {}

  std::string name() const override { return "onitama"; }

  // Board and the full deck (cards with their offsets): two jobs with other rules never share a
  // work directory's manifest.
  std::string variant() const override {
    std::string v = std::to_string(rules_.width()) + "x" + std::to_string(rules_.height());
    for (const Card& c : rules_.deck()) v += "; " + describe(c);
    return v + "; every legal state";  // not the reachable set of earlier versions: no shared resume
  }

  void enumerate(const std::string& tier, const std::function<void(StateKey)>& emit) const override {
    const int most = rules_.width() - 1;
    if (tier == "all") {
      for (int blue = 0; blue <= most; ++blue)
        for (int red = 0; red <= most; ++red) rules_.for_each_legal_key(red, blue, emit);
      return;
    }
    auto [red, blue] = parse_tier(tier);
    rules_.for_each_legal_key(red, blue, emit);
  }

  std::vector<Tier> tiers() const override {
    std::vector<Tier> out;
    const int most = rules_.width() - 1;
    for (int total = 0; total <= 2 * most; ++total)
      for (int red = std::max(0, total - most); red <= std::min(total, most); ++red) {
        const int blue = total - red;
        Tier t{tier_name(red, blue), {}};
        if (red > 0) t.depends_on.push_back(tier_name(red - 1, blue));
        if (blue > 0) t.depends_on.push_back(tier_name(red, blue - 1));
        out.push_back(std::move(t));
      }
    return out;
  }
  std::string tier_of(StateKey s) const override {
    const Position p = rules_.decode(s);
    return tier_name(std::popcount(p.students[kRed]), std::popcount(p.students[kBlue]));
  }

  Value terminal_value(StateKey s) const override {
    return rules_.is_terminal(rules_.decode(s)) ? Value::loss(0) : Value::unknown();
  }

  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    rules_.for_each_child(rules_.decode(s), [&](const Position& c, const Move&) {
      out.push_back(Child::state(rules_.encode(c)));
    });
  }

  // Every un-move, unfiltered: parents in higher tiers (a student put back) are legal states the
  // engine simply does not find in the tier it solves.
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    rules_.for_each_parent(rules_.decode(s), [&](const Position& p, const Move&) { out.push_back(rules_.encode(p)); });
  }

  StateKey start() const override { return rules_.start(); }
  std::string render(StateKey s) const override { return rules_.render(rules_.decode(s)); }

  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    try {
      return rules_.encode(rules_.parse(text));
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return std::nullopt;
    }
  }

  std::string move_name(StateKey s, std::size_t i) const override {
    const Position p = rules_.decode(s);
    std::size_t seen = 0;
    std::string name = "#" + std::to_string(i);
    rules_.for_each_child(p, [&](const Position&, const Move& m) {
      if (seen++ == i) name = rules_.move_name(p, m);
    });
    return name;
  }

 private:
  static std::string tier_name(int red, int blue) { return "r" + std::to_string(red) + "b" + std::to_string(blue); }

  // "r<R>b<B>" -> (R, B); anything else, or counts this board cannot hold, is an error naming it.
  std::pair<int, int> parse_tier(const std::string& tier) const {
    const int most = rules_.width() - 1;
    for (int red = 0; red <= most; ++red)
      for (int blue = 0; blue <= most; ++blue)
        if (tier == tier_name(red, blue)) return {red, blue};
    throw std::invalid_argument("onitama " + rules_.board_name() + ": no tier '" + tier + "' (tiers are r<R>b<B> with 0..." +
                                std::to_string(most) + " students a side, or all)");
  }

  Rules rules_;
};

}  // namespace
}  // namespace zermelo::onitama

ZERMELO_REGISTER_GAME(onitama, "Onitama on n x m boards with any five cards (options: board, cards; default 3x3 boar)",
                      [](const std::vector<std::string>& options) -> std::unique_ptr<zermelo::Game> {
                        return std::make_unique<zermelo::onitama::OnitamaGame>(
                            zermelo::onitama::Rules::from_options(options.empty() ? std::vector<std::string>{"3x3"} : options));
                      })
