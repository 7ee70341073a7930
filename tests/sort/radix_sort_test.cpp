// Radix sorting must give exactly std::sort's order for every record type that opts in, and the
// external sorter must give the same stream with radix runs as the plain order, spilled or not.
#include "zermelo/sort/radix_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "pipeline/retrograde_records.hpp"
#include "tests/test_util.hpp"
#include "zermelo/sort/external_sort.hpp"

namespace zermelo {
namespace {

using retro::ChildValue;
using retro::Edge;
using retro::LevelMsg;
using retro::Msg;

// Few distinct values per field, so ties on the leading fields are common and later fields decide.
template <class T, class Make>
void expect_radix_equals_std_sort(std::size_t n, Make make) {
  std::mt19937_64 rng(11);
  std::vector<T> v(n);
  for (auto& r : v) r = make(rng);
  std::vector<T> expected = v, scratch(n);
  std::sort(expected.begin(), expected.end());
  radix_sort(v.data(), scratch.data(), v.size());
  ASSERT_EQ(v.size(), expected.size());
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(std::memcmp(&v[i], &expected[i], sizeof(T)), 0) << "record " << i;
}

TEST(RadixSort, U64KeysWithConstantHighBytes) {
  expect_radix_equals_std_sort<std::uint64_t>(100000,
                                              [](auto& rng) { return (rng() % 5000) << 7 | 3; });
  expect_radix_equals_std_sort<std::uint64_t>(100000, [](auto& rng) { return rng(); });
}

TEST(RadixSort, ChildValuesOrderByKeyThenValue) {
  expect_radix_equals_std_sort<ChildValue>(100000, [](auto& rng) {
    ChildValue m;
    m.key = (rng() % 3000) << 20 | (rng() % 3);
    m.value = static_cast<std::uint16_t>(rng() % 700);
    return m;
  });
}

// A message packs the parent's key above the lost bit: sorted, it groups by key, won before lost.
TEST(RadixSort, MessagesOrderByKeyThenLostBit) {
  expect_radix_equals_std_sort<Msg>(
      100000, [](auto& rng) { return Msg::to((rng() % 3000) << 20 | (rng() % 3), rng() % 2); });
  const Msg a = Msg::to(Msg::kMaxKey, true);
  EXPECT_EQ(a.key(), Msg::kMaxKey);
  EXPECT_TRUE(a.child_lost());
  EXPECT_FALSE(Msg::to(7, false).child_lost());
  EXPECT_LT(Msg::to(7, true), Msg::to(8, false));
  EXPECT_THROW(Msg::to(Msg::kMaxKey + 1, false), std::out_of_range);
}

TEST(RadixSort, LevelMessagesOrderByLevelKeyKindValue) {
  expect_radix_equals_std_sort<LevelMsg>(100000, [](auto& rng) {
    LevelMsg m;
    m.level = static_cast<std::uint32_t>(rng() % 300);
    m.kind = static_cast<std::uint16_t>(rng() % 2);
    m.value = static_cast<std::uint16_t>(rng() % 5);
    m.key = rng() % 50;
    return m;
  });
}

TEST(RadixSort, EdgesOrderByChildThenParent) {
  expect_radix_equals_std_sort<Edge>(100000, [](auto& rng) {
    return Edge{rng() % 100, rng() % 1000};
  });
}

TEST(RadixSort, TrivialInputs) {
  std::uint64_t one = 5, scratch = 0;
  radix_sort(&one, &scratch, 1);
  EXPECT_EQ(one, 5u);
  radix_sort(&one, &scratch, 0);
  std::vector<std::uint64_t> same(1000, 42), s2(1000);
  radix_sort(same.data(), s2.data(), same.size());
  EXPECT_TRUE(std::all_of(same.begin(), same.end(), [](auto x) { return x == 42; }));
}

// The external sorter takes the radix path for records of several fields: in RAM, spilled to many
// runs, one thread or two, the stream is std::sort's order.
TEST(RadixSort, ExternalSorterStreamsTheSameOrderSpilledOrNot) {
  testing::ScratchDir dir;
  std::mt19937_64 rng(3);
  std::vector<ChildValue> in(600000);
  for (auto& m : in) {
    m.key = rng() % 100000;
    m.value = static_cast<std::uint16_t>(rng() % 4);
  }
  std::vector<ChildValue> expected = in;
  std::sort(expected.begin(), expected.end());
  for (std::uint64_t memory : {64ull << 20, 20ull << 20})
    for (unsigned threads : {1u, 2u}) {
      SortOptions o;
      o.scratch_dir = dir / "s";
      o.memory_bytes = memory;
      o.threads = threads;
      ExternalSorter<ChildValue> s(o);
      for (auto& m : in) s.push(m);
      s.sort();
      if (memory < (30ull << 20)) {
        EXPECT_GT(s.spilled_runs(), 1u);
      }
      ChildValue m;
      std::size_t i = 0;
      while (s.next(m)) {
        ASSERT_LT(i, expected.size());
        ASSERT_EQ(std::memcmp(&m, &expected[i], sizeof(ChildValue)), 0)
            << "record " << i << " memory " << memory << " threads " << threads;
        ++i;
      }
      EXPECT_EQ(i, expected.size());
    }
}

// A comparator other than std::less that declares it compares the layout's fields (as the DFA
// passes' do) gets the radix path, and the stream is still std::sort's under that comparator;
// one that does not declare it keeps std::sort.
struct Pair32 {
  std::uint32_t hi, lo, extra;
};
struct Pair32Less {
  static constexpr bool kOrdersByRadixLayout = true;
  bool operator()(const Pair32& x, const Pair32& y) const {
    return std::tie(x.hi, x.lo) < std::tie(y.hi, y.lo);
  }
};
struct Pair32PlainLess {
  bool operator()(const Pair32& x, const Pair32& y) const { return Pair32Less()(x, y); }
};

}  // namespace
template <>
struct RadixLayout<Pair32> {
  static constexpr std::array<RadixField, 2> fields{RadixField{0, 4}, RadixField{4, 4}};
};
namespace {

static_assert(ExternalSorter<Pair32, Pair32Less>::uses_radix_sort());
static_assert(!ExternalSorter<Pair32, Pair32PlainLess>::uses_radix_sort());

TEST(RadixSort, AComparatorOfTheLayoutsFieldsSortsByRadix) {
  testing::ScratchDir dir;
  std::mt19937_64 rng(5);
  std::vector<Pair32> in(400000);
  for (std::uint32_t i = 0; i < in.size(); ++i)  // (hi, lo) unique: the order is total
    in[i] = Pair32{static_cast<std::uint32_t>(rng() % 700), i, static_cast<std::uint32_t>(rng())};
  std::shuffle(in.begin(), in.end(), rng);
  std::vector<Pair32> expected = in;
  std::sort(expected.begin(), expected.end(), Pair32Less());
  SortOptions o;
  o.scratch_dir = dir / "s";
  o.memory_bytes = 20ull << 20;
  ExternalSorter<Pair32, Pair32Less> s(o);
  for (auto& r : in) s.push(r);
  s.sort();
  EXPECT_GT(s.spilled_runs(), 1u);
  Pair32 r;
  std::size_t i = 0;
  while (s.next(r)) {
    ASSERT_LT(i, expected.size());
    ASSERT_EQ(std::memcmp(&r, &expected[i], sizeof r), 0) << "record " << i;
    ++i;
  }
  EXPECT_EQ(i, expected.size());
}

}  // namespace
}  // namespace zermelo
