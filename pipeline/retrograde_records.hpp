// The fixed-size records the retrograde passes stream through run files, and their sort orders.
// Every order compares all fields, so equal records are byte-identical and outputs do not depend
// on the memory budget (see external_sort.hpp). Padding is zeroed by value-initialisation.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>

#include "zermelo/engine/retrograde.hpp"

#include "zermelo/sort/radix_sort.hpp"

namespace zermelo::retro {

// An undecided state during the solve, with the number of its children not yet known to be won.
// Only undecided states are kept in the state run: a decided state never changes again, so it
// moves to that level's decided run and later levels no longer read or write it.
struct Undecided {
  std::uint64_t key = 0;
  std::uint32_t pending = 0;
  std::uint32_t pad = 0;
};

// Values runs are sorted by key; a state appears once, so the value only breaks no ties.
struct KeyValueOrder {
  bool operator()(const KeyValue& a, const KeyValue& b) const {
    return a.key != b.key ? a.key < b.key : a.value < b.value;
  }
};

// "One of your children is lost / won": what a level sends to a predecessor. The merge needs no
// more than that (the level fixes the number of plies), so a message is one word: the parent's
// key shifted left and the lost bit. Half the bytes of a (key, value) pair to sort, spill and
// merge, and billions of them are written every level of a large tier.
struct Msg {
  std::uint64_t bits = 0;  // key << 1 | child_lost
  static constexpr StateKey kMaxKey = (StateKey{1} << 63) - 1;
  static Msg to(StateKey parent, bool child_lost) {
    if (parent > kMaxKey)
      throw std::out_of_range("state key " + std::to_string(parent) +
                              " does not fit a message (keys must be below 2^63)");
    return Msg{parent << 1 | static_cast<std::uint64_t>(child_lost)};
  }
  StateKey key() const { return bits >> 1; }
  bool child_lost() const { return bits & 1; }
  friend bool operator<(const Msg& a, const Msg& b) { return a.bits < b.bits; }
};

// "Your child has value `value`", any value: check-solution's answers, which recompute values
// whole.
struct ChildValue {
  std::uint64_t key = 0;
  std::uint16_t value = 0;
  std::uint16_t pad[3] = {0, 0, 0};
  friend bool operator<(const ChildValue& a, const ChildValue& b) {
    return std::tie(a.key, a.value) < std::tie(b.key, b.value);
  }
};

// Work scheduled for a later level: a seed (a state decided by the rules, kind 1) or a message to
// a state from a terminal move or another tier (kind 0). Sorted by level first.
struct LevelMsg {
  std::uint32_t level = 0;
  std::uint16_t kind = 0;
  std::uint16_t value = 0;
  std::uint64_t key = 0;
  friend bool operator<(const LevelMsg& a, const LevelMsg& b) {
    return std::tie(a.level, a.key, a.kind, a.value) < std::tie(b.level, b.key, b.kind, b.value);
  }
};
constexpr std::uint16_t kMessage = 0, kSeed = 1;

// A move parent -> child, sorted by child: reverse edges, and lookups of children's values.
struct Edge {
  std::uint64_t child = 0;
  std::uint64_t parent = 0;
  friend bool operator<(const Edge& a, const Edge& b) {
    return std::tie(a.child, a.parent) < std::tie(b.child, b.parent);
  }
};

}  // namespace zermelo::retro

// Radix layouts: the fields each operator< above compares, most significant first.
namespace zermelo {
template <>
struct RadixLayout<retro::Msg> {
  static constexpr std::array<RadixField, 1> fields{RadixField{0, 8}};
};
template <>
struct RadixLayout<retro::ChildValue> {
  static constexpr std::array<RadixField, 2> fields{RadixField{0, 8}, RadixField{8, 2}};
};
template <>
struct RadixLayout<retro::LevelMsg> {
  static constexpr std::array<RadixField, 4> fields{RadixField{0, 4}, RadixField{8, 8},
                                                    RadixField{4, 2}, RadixField{6, 2}};
};
template <>
struct RadixLayout<retro::Edge> {
  static constexpr std::array<RadixField, 2> fields{RadixField{0, 8}, RadixField{8, 8}};
};
}  // namespace zermelo
