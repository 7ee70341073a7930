// Nim with m ordered heaps of at most n sticks: take any number from one heap; who takes the last
// stick wins (so the empty position is lost for the player to move). A cheap stand-in game whose
// answer is known in closed form (lost iff the XOR of the heaps is 0) and which has un-moves, so
// it exercises the engine's predecessor path. Key: the heaps as base-(n+1) digits, heap 0 lowest.
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

class Nim final : public Game {
 public:
  Nim(unsigned heaps, unsigned sticks) : m_(heaps), n_(sticks) {
    if (m_ < 1 || m_ > 16 || n_ < 1 || n_ > 64) throw std::invalid_argument("nim: need 1..16 heaps of 1..64 sticks");
    total_ = 1;
    for (unsigned i = 0; i < m_; ++i) {
      if (total_ > (1ull << 40) / (n_ + 1)) throw std::invalid_argument("nim: too many positions");
      total_ *= n_ + 1;
    }
  }
  std::string name() const override { return "nim"; }
  std::string variant() const override { return std::to_string(m_) + "x" + std::to_string(n_); }
  void enumerate(const std::string&, const std::function<void(StateKey)>& emit) const override {
    for (StateKey k = 0; k < total_; ++k) emit(k);
  }
  Value terminal_value(StateKey s) const override { return s == 0 ? Value::loss(0) : Value::unknown(); }
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
    for (unsigned i = 0; i < m_; ++i, s /= n_ + 1) os << "heap " << i << ": " << std::string(s % (n_ + 1), '|') << "\n";
    return os.str();
  }

 private:
  unsigned m_, n_;
  StateKey total_ = 0;
};

}  // namespace
}  // namespace zermelo

// Options: HEAPSxSTICKS, e.g. "4x7" (default 3x5).
ZERMELO_REGISTER_GAME(nim, "Nim, HEAPSxSTICKS (default 3x5), ordered heaps", [](const std::vector<std::string>& opts) {
  unsigned m = 3, n = 5;
  if (!opts.empty() && std::sscanf(opts[0].c_str(), "%ux%u", &m, &n) != 2)
    throw std::invalid_argument("nim: option must be HEAPSxSTICKS, e.g. 4x7, not '" + opts[0] + "'");
  return std::make_unique<zermelo::Nim>(m, n);
})
