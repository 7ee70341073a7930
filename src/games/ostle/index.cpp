// The dense index of canonical positions and the state key (see index.hpp).
#include "zermelo/games/ostle/index.hpp"

#include <array>
#include <stdexcept>

namespace zermelo::ostle {
namespace {

constexpr std::array<std::array<std::uint64_t, 26>, 26> kBinomial = [] {
  std::array<std::array<std::uint64_t, 26>, 26> c{};
  for (int n = 0; n < 26; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
  }
  return c;
}();

}  // namespace

std::uint64_t binomial(int n, int k) { return k < 0 || k > n ? 0 : kBinomial[n][k]; }

std::string material_name(int material) {
  return std::to_string(4 + material / 2) + "v" + std::to_string(4 + material % 2);
}

std::string class_name(int cls) {
  return material_name(class_material(cls)) + "/" + square_name(kHoleReps[class_hole_index(cls)]);
}

int class_of(const Position& p) {
  return class_id(material_of(p.my_count(), p.opp_count()), hole_rep_index(p.hole));
}

std::uint64_t PositionIndex::colex_rank(Bits compact) {
  std::uint64_t r = 0;
  int i = 1;
  for (; compact; compact &= compact - 1, ++i) r += kBinomial[std::countr_zero(compact)][i];
  return r;
}

Bits PositionIndex::colex_unrank(std::uint64_t rank, int k) {
  Bits out = 0;
  for (int i = k; i >= 1; --i) {
    int p = i - 1;  // the largest p with C(p, i) <= rank
    while (p + 1 < 26 && kBinomial[p + 1][i] <= rank) ++p;
    rank -= kBinomial[p][i];
    out |= Bits{1} << p;
  }
  return out;
}

const PositionIndex& PositionIndex::get() {
  static const PositionIndex index;
  return index;
}

PositionIndex::PositionIndex() : classes_(kClasses) {
  for (int cls = 0; cls < kClasses; ++cls) {
    ClassTable& t = classes_[cls];
    t.hole = kHoleReps[class_hole_index(cls)];
    t.k_me = class_my_count(cls);
    t.k_opp = class_opp_count(cls);
    t.nonhole = kBoardMask & ~bit(t.hole);
    t.opp_sets = binomial(kSquares - 1 - t.k_me, t.k_opp);
    const unsigned group = rep_stabiliser(class_hole_index(cls));
    t.entry_of_m.assign(binomial(kSquares - 1, t.k_me), -1);
    t.offset_of_m.assign(binomial(kSquares - 1, t.k_me), kNotCanonical);
    std::uint64_t total = 0;
    std::uint64_t m_rank = 0;
    const Bits last = ((Bits{1} << t.k_me) - 1) << (kSquares - 1 - t.k_me);
    for (Bits compact = (Bits{1} << t.k_me) - 1;; compact = next_combination(compact), ++m_rank) {
      const Bits me = pdep(compact, t.nonhole);
      bool smallest = true;
      unsigned fixing = 1u;
      for (unsigned rest = group & ~1u; rest; rest &= rest - 1) {
        const Bits img = sym_bits(std::countr_zero(rest), me);
        if (img < me) smallest = false;
        if (img == me) fixing |= rest & (~rest + 1);
      }
      if (smallest) {
        MEntry entry{me, total, -1, fixing};
        t.offset_of_m[m_rank] = fixing == 1u ? static_cast<std::uint32_t>(total) : kListed;
        if (fixing == 1u) {
          total += t.opp_sets;
        } else {
          // Opponent sets smallest under the symmetries that fix M: listed one by one.
          const Bits free = t.nonhole & ~me;
          std::vector<Bits> list;
          const Bits last_opp = ((Bits{1} << t.k_opp) - 1) << (kSquares - 1 - t.k_me - t.k_opp);
          for (Bits c = (Bits{1} << t.k_opp) - 1;; c = next_combination(c)) {
            const Bits opp = pdep(c, free);
            bool keep = true;
            for (unsigned rest = fixing & ~1u; rest && keep; rest &= rest - 1)
              keep = sym_bits(std::countr_zero(rest), opp) >= opp;
            if (keep) list.push_back(opp);
            if (c == last_opp) break;
          }
          entry.list = static_cast<std::int32_t>(t.lists.size());
          total += list.size();
          t.lists.push_back(std::move(list));
        }
        t.entry_of_m[m_rank] = static_cast<std::int32_t>(t.entries.size());
        t.entries.push_back(entry);
      }
      if (compact == last) break;
    }
    t.total = total;
  }
}

std::size_t PositionIndex::entry_at(const ClassTable& t, std::uint64_t rank) const {
  auto it = std::upper_bound(t.entries.begin(), t.entries.end(), rank,
                             [](std::uint64_t r, const MEntry& e) { return r < e.offset; });
  return static_cast<std::size_t>(it - t.entries.begin()) - 1;
}

std::uint64_t PositionIndex::rank(const Position& p) const {
  const ClassTable& t = classes_[class_of(p)];
  const std::uint64_t m_rank = colex_rank(pext(p.me, t.nonhole));
  const std::uint32_t offset = t.offset_of_m[m_rank];
  if (offset < kListed) return offset + colex_rank(pext(p.opp, t.nonhole & ~p.me));
  if (offset == kNotCanonical)
    throw std::logic_error("ostle: rank of a non-canonical position " + to_text(p));
  const MEntry& m = t.entries[t.entry_of_m[m_rank]];
  const auto& list = t.lists[m.list];
  auto it = std::lower_bound(list.begin(), list.end(), p.opp);
  if (it == list.end() || *it != p.opp)
    throw std::logic_error("ostle: rank of a non-canonical position " + to_text(p));
  return m.offset + static_cast<std::uint64_t>(it - list.begin());
}

Position PositionIndex::unrank(int cls, std::uint64_t rank) const {
  const ClassTable& t = classes_[cls];
  if (rank >= t.total)
    throw std::out_of_range("ostle: rank " + std::to_string(rank) + " beyond class " +
                            class_name(cls));
  const MEntry& m = t.entries[entry_at(t, rank)];
  const std::uint64_t local = rank - m.offset;
  const Bits opp =
      m.list < 0 ? pdep(colex_unrank(local, t.k_opp), t.nonhole & ~m.me) : t.lists[m.list][local];
  return Position{m.me, opp, t.hole};
}

KeyedState state_key(const Position& p, int forbid) {
  const Canonical c = canonicalize(p, forbid);
  return KeyedState{make_key(class_of(c.pos), PositionIndex::get().rank(c.pos), c.forbid),
                    c.state_stab};
}

std::pair<Position, int> key_state(Key k) {
  // Sorted runs visit the states of one position one after another, and the solver asks for a
  // state's terminal value and then its moves: one decoded position per thread saves most unranks.
  thread_local Key cached = ~Key{0};
  thread_local Position position{};
  const Key position_key = k >> kForbidBits;
  if (position_key != cached) {
    position = PositionIndex::get().unrank(key_class(k), key_rank(k));
    cached = position_key;
  }
  return {position, key_forbid(k)};
}

ForbidList distinct_forbid_codes(const Position& p, unsigned stab) {
  const ForbidList all = reachable_forbid_codes(p);
  if (stab == 1u) return all;
  ForbidList distinct;
  for (int c : all) {
    bool smallest = true;
    for (unsigned g = stab & ~1u; g; g &= g - 1)
      if (sym_forbid(std::countr_zero(g), c) < c) smallest = false;
    if (smallest) distinct.codes[distinct.size++] = static_cast<std::uint8_t>(c);
  }
  return distinct;
}

int distinct_forbid_count(const Position& p, unsigned stab) {
  return stab == 1u ? reachable_forbid_count(p) : distinct_forbid_codes(p, stab).size;
}

}  // namespace zermelo::ostle
