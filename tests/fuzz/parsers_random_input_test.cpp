// Seeded random input for every text parser a user's typing reaches: states and moves of every
// game, Ostle moves, Onitama cards and decks, Othello boards and .obf lines, Breakthrough boards,
// sizes and manifests. The property is the one a fuzzer checks: each input is either read or
// refused with an exception naming it, never a crash (run under ASan+UBSan in CI's second
// configuration, a stray read is a failure too). Inputs are random strings over each format's
// alphabet and random byte edits of valid inputs, so most get past the first character.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "tests/test_util.hpp"
#include "zermelo/game.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"
#include "zermelo/games/onitama/cards.hpp"
#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/manifest_seal.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo {
namespace {

constexpr int kInputs = 4000;

// Random text: mostly the format's own characters, some arbitrary bytes, sometimes a valid
// example with a few bytes changed, inserted or cut.
class Inputs {
 public:
  Inputs(std::string alphabet, std::vector<std::string> valid, std::uint64_t seed)
      : alphabet_(std::move(alphabet)), valid_(std::move(valid)), rng_(seed) {}
  std::string next() {
    std::string s = !valid_.empty() && coin(2) ? valid_[pick(valid_.size())] : random_text();
    for (std::size_t edits = pick(4); edits > 0; --edits) edit(s);
    return s;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : rng_() % n; }
  bool coin(int n) { return pick(static_cast<std::size_t>(n)) == 0; }
  char any_char() {
    return coin(8) ? static_cast<char>(pick(256)) : alphabet_[pick(alphabet_.size())];
  }
  std::string random_text() {
    std::string s(pick(80), ' ');
    for (auto& c : s) c = any_char();
    return s;
  }
  void edit(std::string& s) {
    const std::size_t at = pick(s.size() + 1);
    switch (pick(3)) {
      case 0:
        if (at < s.size()) s[at] = any_char();
        break;
      case 1:
        s.insert(at, 1, any_char());
        break;
      default:
        if (at < s.size()) s.erase(at, 1 + pick(3));
    }
  }
  std::string alphabet_;
  std::vector<std::string> valid_;
  std::mt19937_64 rng_;
};

// Feeds kInputs inputs to `parse`; only std::exception subclasses may escape it.
void survive(Inputs in, const std::function<void(const std::string&)>& parse,
             int inputs = kInputs) {
  for (int i = 0; i < inputs; ++i) {
    const std::string s = in.next();
    try {
      parse(s);
    } catch (const std::exception&) {
    }
  }
}

TEST(ParsersRandomInput, EveryGamesStates) {
  for (auto& [name, summary] : registered_games()) {
    SCOPED_TRACE(name);
    auto g = make_game(name);
    const StateKey start = g->start();
    std::vector<std::string> valid{"start"};
    std::string rendered = g->render(start);
    for (auto& c : rendered) c = c == '\n' ? '/' : c;
    valid.push_back(rendered);
    if (name == "ostle") valid.push_back("11111-00000-00300-00000-22222:c3U");
    std::vector<Child> kids;
    survive(Inputs("0123456789-:/.xXoObBrRwW abcdeU DLR\n", valid, 7), [&](const std::string& s) {
      std::string error;
      std::optional<StateKey> k = g->parse(s, &error);
      if (!k) {
        EXPECT_FALSE(error.empty()) << "'" << s << "' refused without a reason";
        return;
      }
      EXPECT_LT(*k, StateKey{1} << 63);
      kids.clear();
      g->successors(*k, kids);  // a key parse accepts is a state the rules can expand
    });
  }
}

// An option no game knows is an error naming the game, never ignored: a solve that ignored it
// would answer for another game than the one asked about, with exit 0.
TEST(ParsersRandomInput, EveryGameRefusesAnUnknownOption) {
  for (auto& [name, summary] : registered_games()) {
    SCOPED_TRACE(name);
    try {
      make_game(name, {"no-such-option"});
      ADD_FAILURE() << name << " accepted the option 'no-such-option'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

// Every game's moves as typed (parse_move, as `play --opponent human` reads them) at its start:
// a move of the state, or refused with a reason.
TEST(ParsersRandomInput, EveryGamesMovesAsTyped) {
  for (auto& [name, summary] : registered_games()) {
    SCOPED_TRACE(name);
    auto g = make_game(name);
    const StateKey start = g->start();
    std::vector<Child> kids;
    g->successors(start, kids);
    std::vector<std::string> valid;
    for (std::size_t i = 0; i < kids.size(); ++i) valid.push_back(g->move_name(start, i));
    survive(Inputs("abcdefgh0123456789-x:UDLR pass", valid, 23), [&](const std::string& s) {
      std::string error;
      const std::optional<std::size_t> i = g->parse_move(start, s, &error);
      if (i)
        EXPECT_LT(*i, kids.size()) << s;
      else
        EXPECT_FALSE(error.empty()) << "'" << s << "' refused without a reason";
    });
  }
}

TEST(ParsersRandomInput, OstleMoves) {
  survive(Inputs("abcdef012345UDLRx", {"c3U", "a1R", "e5D"}, 11), [](const std::string& s) {
    std::string error;
    if (!ostle::parse_move(s, &error)) {
      EXPECT_FALSE(error.empty());
    }
  });
}

TEST(ParsersRandomInput, OnitamaCardsAndDecks) {
  survive(
      Inputs("boartigercrabelmonkeyox,;:() 0123456789-", {"boar", "tiger,ox,crab,eel,boar"}, 13),
      [](const std::string& s) {
        onitama::parse_card(s);
        onitama::parse_deck(s);
      });
}

TEST(ParsersRandomInput, OthelloBoardsAndObfLines) {
  const std::string start = othello::board_string(othello::start_position(8));
  survive(Inputs("-XOxo.*; :+0123456789ABCDEFGHabcdefgh", {start + " X; D3:+0;", start}, 17),
          [](const std::string& s) {
            othello::parse_obf_line(s);
            othello::parse_position(s, "X");
          });
}

TEST(ParsersRandomInput, BreakthroughBoardsAndSizes) {
  survive(Inputs("0123456789xX GMKTB.", {"3x4", "5x6", "512M", "4G", "1.5GiB"}, 19),
          [](const std::string& s) {
            breakthrough::parse_board(s);
            const std::uint64_t bytes = parse_size(s);
            EXPECT_GT(bytes, 0u) << s;
          });
}

// A sealed manifest changed in any way is refused; unchanged, it reads back.
TEST(ParsersRandomInput, ManifestsChangedAnywhereAreRefused) {
  testing::ScratchDir dir;
  nlohmann::json doc{{"format", "zermelo-manifest-1"},
                     {"job", "retrograde"},
                     {"params", {{"game", "nim"}}},
                     {"checksum", ""},
                     {"stages", {{{"name", "final"}, {"outputs", nlohmann::json::array()}}}}};
  const std::string sealed = seal_manifest_text(doc.dump(2) + "\n");
  const std::string m = dir / "manifest.json";
  std::size_t refused = 0, changed = 0;
  survive(
      Inputs("{}[]\":, \n0123456789abcdef", {sealed}, 23),
      [&](const std::string& s) {
        std::ofstream(m, std::ios::trunc | std::ios::binary) << s;
        const bool differs = s != sealed;
        changed += differs;
        try {
          read_manifest(dir.str(), true);
          EXPECT_FALSE(differs) << "a changed manifest was read:\n" << s;
        } catch (const std::exception&) {
          refused += 1;
          throw;
        }
      },
      kInputs / 4);
  EXPECT_EQ(refused, changed);
  EXPECT_GT(changed, kInputs / 8u);
}

}  // namespace
}  // namespace zermelo
