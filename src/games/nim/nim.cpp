// Nim with m ordered heaps of at most n sticks: take any number from one heap; who takes the last
// stick wins (so the empty position is lost for the player to move). A cheap stand-in game whose
// answer is known in closed form (lost iff the XOR of the heaps is 0) and which has un-moves, so
// it exercises the engine's predecessor path. Key: the heaps as base-(n+1) digits, heap 0 lowest.
// Option "tiered" splits the states by the number of sticks left (tier "sK"): every move leads to a
// lower tier, so a tiered solve exercises the engine's lookups of lower tiers' values.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "zermelo/game.hpp"
#include "zermelo/games/nim/nim_sets.hpp"

namespace zermelo {
namespace {

class Nim final : public Game {
 public:
  Nim(unsigned heaps, unsigned sticks, bool tiered) : m_(heaps), n_(sticks), tiered_(tiered) {
    if (m_ < 1 || m_ > 16 || n_ < 1 || n_ > 64)
      throw std::invalid_argument("nim: need 1..16 heaps of 1..64 sticks");
    total_ = 1;
    for (unsigned i = 0; i < m_; ++i) {
      if (total_ > (1ull << 40) / (n_ + 1)) throw std::invalid_argument("nim: too many positions");
      total_ *= n_ + 1;
    }
  }
  std::string name() const override { return "nim"; }
  std::string variant() const override {
    return std::to_string(m_) + "x" + std::to_string(n_) + (tiered_ ? " tiered" : "");
  }
  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    enumerate_keys(tier, 0, total_, emit);
  }
  // Parts of the key space, equally wide, for the ranks of an MPI solve.
  std::uint64_t enumeration_parts(const std::string&) const override {
    return std::min<std::uint64_t>(total_, kParts);
  }
  void enumerate_part(const std::string& tier, std::uint64_t part,
                      const std::function<void(StateKey)>& emit) const override {
    const std::uint64_t parts = enumeration_parts(tier);
    enumerate_keys(tier, total_ * part / parts, total_ * (part + 1) / parts, emit);
  }
  std::vector<Tier> tiers() const override {
    if (!tiered_) return Game::tiers();
    std::vector<Tier> out;
    for (unsigned t = 0; t <= m_ * n_; ++t) {
      Tier tier{"s" + std::to_string(t), {}};
      for (unsigned u = 0; u < t; ++u) tier.depends_on.push_back("s" + std::to_string(u));
      out.push_back(tier);
    }
    return out;
  }
  std::string tier_of(StateKey s) const override {
    if (!tiered_) return "all";
    unsigned sticks = 0;
    for (unsigned i = 0; i < m_; ++i, s /= n_ + 1) sticks += static_cast<unsigned>(s % (n_ + 1));
    return "s" + std::to_string(sticks);
  }
  Value terminal_value(StateKey s) const override {
    return s == 0 ? Value::loss(0) : Value::unknown();
  }
  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    StateKey w = 1;
    for (unsigned i = 0; i < m_; ++i, w *= n_ + 1) {
      StateKey h = s / w % (n_ + 1);
      for (StateKey take = 1; take <= h; ++take) out.push_back(Child::state(s - take * w));
    }
  }
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    StateKey w = 1;
    for (unsigned i = 0; i < m_; ++i, w *= n_ + 1) {
      StateKey h = s / w % (n_ + 1);
      for (StateKey add = 1; h + add <= n_; ++add) out.push_back(s + add * w);
    }
  }
  StateKey start() const override { return total_ - 1; }  // every heap full
  std::string render(StateKey s) const override {
    std::ostringstream os;
    for (unsigned i = 0; i < m_; ++i, s /= n_ + 1)
      os << "heap " << i << ": " << std::string(s % (n_ + 1), '|') << "\n";
    return os.str();
  }
  // The heaps' sizes, heap 0 first, separated by commas or spaces: "3,5,2".
  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    std::vector<StateKey> heaps;
    auto fail = [&](const std::string& why) -> std::optional<StateKey> {
      if (error)
        *error =
            why + " (write the " + std::to_string(m_) + " heaps' sizes, e.g. " + example() + ")";
      return std::nullopt;
    };
    std::size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ',' || text[i] == ' ') {
        ++i;
        continue;
      }
      if (text[i] < '0' || text[i] > '9')
        return fail(std::string("bad character '") + text[i] + "'");
      StateKey h = 0;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        h = h * 10 + static_cast<StateKey>(text[i++] - '0');
        if (h > n_) return fail("a heap of more than " + std::to_string(n_) + " sticks");
      }
      heaps.push_back(h);
    }
    if (heaps.size() != m_)
      return fail(std::to_string(heaps.size()) + " heaps, not " + std::to_string(m_));
    StateKey key = 0;
    for (std::size_t h = heaps.size(); h-- > 0;) key = key * (n_ + 1) + heaps[h];
    return key;
  }
  // "2:3": three sticks taken from the second heap, heaps counted from 1 as a person does
  // (successors' order: heap by heap, fewest first).
  std::string move_name(StateKey s, std::size_t i) const override {
    for (unsigned h = 0; h < m_; ++h, s /= n_ + 1) {
      const std::size_t size = s % (n_ + 1);
      if (i < size) return std::to_string(h + 1) + ":" + std::to_string(i + 1);
      i -= size;
    }
    return "?";
  }

 private:
  static constexpr std::uint64_t kParts = 256;
  unsigned m_, n_;
  bool tiered_;
  StateKey total_ = 0;

  void enumerate_keys(const std::string& tier, StateKey first, StateKey end,
                      const std::function<void(StateKey)>& emit) const {
    for (StateKey k = first; k < end; ++k)
      if (!tiered_ || tier == "all" || tier_of(k) == tier) emit(k);
  }

  std::string example() const {
    std::string e;
    for (unsigned i = 0; i < m_; ++i) e += (i ? "," : "") + std::to_string(std::min(n_, i + 1));
    return e;
  }
};

}  // namespace
}  // namespace zermelo

// Options: HEAPSxSTICKS, e.g. "4x7" (default 3x5), then optionally "tiered".
ZERMELO_REGISTER_GAME(nim, "Nim, HEAPSxSTICKS [tiered] (default 3x5), ordered heaps",
                      [](const std::vector<std::string>& opts) {
                        zermelo::nim_dfa::NimShape shape;  // 3x5 unless named
                        if (!opts.empty()) shape = zermelo::nim_dfa::parse_shape(opts[0]);
                        bool tiered = opts.size() > 1 && opts[1] == "tiered";
                        if (opts.size() > 2 || (opts.size() == 2 && !tiered))
                          throw std::invalid_argument("nim: options are HEAPSxSTICKS [tiered]");
                        return std::make_unique<zermelo::Nim>(shape.heaps, shape.sticks, tiered);
                      })
