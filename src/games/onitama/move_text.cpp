// See include/zermelo/games/onitama/move_text.hpp.
#include "zermelo/games/onitama/move_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace zermelo::onitama {
namespace {

// A move's two spellings: with its card ("Boar a1-a2", "pass Boar") and without ("a1-a2").
struct Spellings {
  std::string full, squares;
};

std::vector<Spellings> spellings(const Rules& rules, const Position& p) {
  std::vector<Spellings> out;
  rules.for_each_child(p, [&](const Position&, const Move& m) {
    const std::string full = rules.move_name(p, m);
    out.push_back({full, m.pass ? "pass" : full.substr(full.rfind(' ') + 1)});
  });
  return out;
}

// Lower case, single blanks, and `x` read as `-` in the squares (the last word): the form two
// spellings of one move share.
std::string normalised(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::istringstream in(lower);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) return "";
  std::replace(words.back().begin(), words.back().end(), 'x', '-');
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

std::vector<std::string> move_names(const Rules& rules, const Position& p) {
  const std::vector<Spellings> moves = spellings(rules, p);
  std::map<std::string, int> sharing;
  for (const Spellings& m : moves) ++sharing[m.squares];
  std::vector<std::string> names;
  for (const Spellings& m : moves) names.push_back(sharing[m.squares] == 1 ? m.squares : m.full);
  return names;
}

std::optional<std::size_t> find_move(const Rules& rules, const Position& p, std::string_view text,
                                     std::string* error) {
  const std::vector<Spellings> moves = spellings(rules, p);
  const std::string wanted = normalised(text);
  std::vector<std::size_t> fits;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (wanted == normalised(moves[i].full) || wanted == normalised(moves[i].squares))
      fits.push_back(i);
  if (fits.size() == 1) return fits[0];
  if (error) {
    *error =
        "'" + std::string(text) + "' " + (fits.empty() ? "is not a move here" : "is ambiguous:");
    for (std::size_t k = 0; k < fits.size(); ++k)
      *error += (k ? " or " : " ") + moves[fits[k]].full;
  }
  return std::nullopt;
}

}  // namespace zermelo::onitama
