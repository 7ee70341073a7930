#include "zermelo/sort/external_sort.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <random>

#include "tests/test_util.hpp"

namespace zermelo {
namespace {

struct Record {
  std::uint64_t key;
  std::uint64_t payload;
  friend bool operator<(const Record& a, const Record& b) {
    return a.key != b.key ? a.key < b.key : a.payload < b.payload;
  }
};

std::vector<Record> random_records(std::size_t n, std::uint64_t key_range) {
  std::mt19937_64 rng(7);
  std::vector<Record> v(n);
  for (auto& m : v) m = Record{rng() % key_range, rng()};
  return v;
}

std::vector<Record> sorted_with(const std::vector<Record>& in, std::uint64_t memory,
                                const std::string& dir, std::size_t* runs = nullptr) {
  SortOptions o;
  o.scratch_dir = dir;
  o.memory_bytes = memory;
  ExternalSorter<Record> s(o);
  for (auto& m : in) s.push(m);
  s.sort();
  if (runs) *runs = s.spilled_runs();
  std::vector<Record> out;
  Record m;
  while (s.next(m)) out.push_back(m);
  return out;
}

TEST(ExternalSort, InRamAndOutOfCoreAgreeWithStdSort) {
  testing::ScratchDir dir;
  auto in = random_records(2'000'000, 1'000'000);  // duplicate keys on purpose
  auto expect = in;
  std::sort(expect.begin(), expect.end());
  std::size_t runs = 0;
  auto ram = sorted_with(in, 1ull << 30, dir / "ram", &runs);
  EXPECT_EQ(runs, 0u);
  auto disk = sorted_with(in, 24ull << 20, dir / "disk", &runs);  // ~6 MiB of records a run
  EXPECT_GT(runs, 4u);
  ASSERT_EQ(ram.size(), expect.size());
  ASSERT_EQ(disk.size(), expect.size());
  EXPECT_EQ(std::memcmp(ram.data(), expect.data(), expect.size() * sizeof(Record)), 0);
  EXPECT_EQ(std::memcmp(disk.data(), expect.data(), expect.size() * sizeof(Record)), 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "disk")) << "scratch runs must be cleaned up";
}

// `unique` keeps one of each record, whether the repeats meet in one buffer, are squeezed out of
// a full buffer (few distinct records: nothing spills; with 100,000 the buffer stays part full,
// so each fill merges many new records into a large deduplicated prefix), or lie in different runs
// (many).
TEST(ExternalSort, UniqueKeepsOneOfEachRecordInRamAndSpilled) {
  testing::ScratchDir dir;
  for (std::uint64_t distinct : {1'000ull, 100'000ull, 3'000'000ull}) {
    std::mt19937_64 rng(distinct);
    std::vector<std::uint64_t> in(4'000'000);
    for (auto& k : in) k = rng() % distinct * 0x9E3779B97F4A7C15ull;
    std::vector<std::uint64_t> expect = in;
    std::sort(expect.begin(), expect.end());
    expect.erase(std::unique(expect.begin(), expect.end()), expect.end());
    for (std::uint64_t memory : {1ull << 30, 24ull << 20}) {
      SortOptions o;
      o.scratch_dir = dir / ("u" + std::to_string(distinct) + "-" + std::to_string(memory));
      o.memory_bytes = memory;
      o.unique = true;
      ExternalSorter<std::uint64_t> s(o);
      for (auto k : in) s.push(k);
      s.sort();
      EXPECT_EQ(s.size(), in.size());
      if (memory < (1ull << 30)) {
        EXPECT_EQ(s.spilled_runs() > 0, distinct > 1'000'000) << distinct;
      }
      std::vector<std::uint64_t> out;
      std::uint64_t k;
      while (s.next(k)) out.push_back(k);
      EXPECT_EQ(out, expect) << distinct << " distinct, budget " << memory;
    }
  }
}

TEST(ExternalSort, MultiRoundMergeWhenFanInIsSmall) {
  testing::ScratchDir dir;
  auto in = random_records(3'000'000, UINT64_MAX);
  auto expect = in;
  std::sort(expect.begin(), expect.end());
  // 22 MiB: ~5 MiB runs -> ~20 runs, while the fan-in is only about four readers.
  auto out = sorted_with(in, 22ull << 20, dir / "s");
  ASSERT_EQ(out.size(), expect.size());
  EXPECT_EQ(std::memcmp(out.data(), expect.data(), expect.size() * sizeof(Record)), 0);
}

TEST(ExternalSort, DigestDoesNotDependOnBudgetAndSurvivesAKill) {
  testing::ScratchDir dir;
  auto in = random_records(1'000'000, 5000);
  auto sort_to = [&](std::uint64_t mem, const std::string& name) {
    SortOptions o;
    o.scratch_dir = dir / (name + ".scratch");
    o.memory_bytes = mem;
    ExternalSorter<Record> s(o);
    for (auto& m : in) s.push(m);
    s.sort();
    RunOptions ro;
    ro.delta_u64_keys = true;
    return s.write_to(dir / (name + ".run"), ro).digest_hex();
  };
  std::string reference = sort_to(1ull << 30, "ram");
  EXPECT_EQ(sort_to(24ull << 20, "disk"), reference);
  pid_t pid = fork();
  if (pid == 0) {  // killed mid-merge: the child dies with runs and a .tmp output on disk
    SortOptions o;
    o.scratch_dir = dir / "killed.scratch";
    o.memory_bytes = 24ull << 20;
    ExternalSorter<Record> s(o);
    for (auto& m : in) s.push(m);
    s.sort();
    RunOptions ro;
    ro.record_size = sizeof(Record);
    RunWriter w(dir / "killed.run", ro);
    Record m;
    for (int i = 0; i < 500000 && s.next(m); ++i) w.push(m);
    _exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "killed.run"));
  EXPECT_EQ(sort_to(24ull << 20, "killed"), reference);  // the rerun starts over and agrees
}

TEST(ExternalSort, RefusesABudgetTooSmall) {
  SortOptions o;
  o.scratch_dir = "unused";
  o.memory_bytes = 1000;
  EXPECT_THROW(ExternalSorter<Record> s(o), std::invalid_argument);
}

TEST(MergeJoin, VisitsEveryKeyOnceWithBothSides) {
  std::vector<std::uint64_t> a = {1, 3, 5, 7}, b = {2, 3, 7, 9};
  std::size_t ia = 0, ib = 0;
  std::vector<std::string> seen;
  merge_join<std::uint64_t, std::uint64_t>(
      [&](std::uint64_t& x) { return ia < a.size() ? (x = a[ia++], true) : false; },
      [&](std::uint64_t& x) { return ib < b.size() ? (x = b[ib++], true) : false; },
      [](auto x) { return x; }, [](auto x) { return x; },
      [&](const std::uint64_t* x, const std::uint64_t* y) {
        seen.push_back(std::to_string(x ? *x : 0) + "/" + std::to_string(y ? *y : 0));
      });
  EXPECT_EQ(seen, (std::vector<std::string>{"1/0", "0/2", "3/3", "5/0", "7/7", "0/9"}));
}

}  // namespace
}  // namespace zermelo
