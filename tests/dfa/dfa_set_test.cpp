// The DFA set library against explicit std::set models on small random languages: operations,
// change, counting, membership, enumeration, minimality (against brute-force residual counting),
// canonical form, garbage collection, the memory budget, and the set file round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>

#include "zermelo/dfa/set.hpp"
#include "zermelo/dfa/set_file.hpp"
#include "zermelo/io/run_file.hpp"

namespace {

using namespace zermelo::dfa;
using Str = std::vector<std::uint8_t>;
using Model = std::set<Str>;

const std::vector<unsigned> kAlphabet = {2, 3, 3, 2, 3, 3};

Model random_model(std::mt19937& rng, std::size_t n) {
  Model m;
  for (std::size_t i = 0; i < n; ++i) {
    Str s(kAlphabet.size());
    for (std::size_t j = 0; j < s.size(); ++j)
      s[j] = static_cast<std::uint8_t>(rng() % kAlphabet[j]);
    m.insert(s);
  }
  return m;
}

Set build(Manager& mgr, const Model& m) {
  std::vector<Set> parts;
  for (auto& s : m) parts.push_back(mgr.singleton(s));
  return unite_all(parts, mgr);
}

Model contents(const Set& s) {
  Model m;
  s.enumerate([&](const Str& x) {
    m.insert(x);
    return true;
  });
  return m;
}

// Minimal layered DFA size by brute force: distinct non-empty residual languages per layer, +
// accept. bytes (if given) gets the standalone encoding's size: 4 bytes per transition of each
// non-accepting state.
std::size_t minimal_states(const Model& m, std::uint64_t* bytes = nullptr) {
  if (bytes) *bytes = 0;
  if (m.empty()) return 0;
  std::size_t total = 1;  // accepting state
  for (std::size_t layer = 0; layer < kAlphabet.size(); ++layer) {
    std::map<Str, Model> residual;
    for (auto& s : m)
      residual[Str(s.begin(), s.begin() + static_cast<long>(layer))].insert(
          Str(s.begin() + static_cast<long>(layer), s.end()));
    std::set<Model> distinct;
    for (auto& [p, r] : residual) distinct.insert(r);
    total += distinct.size();
    if (bytes) *bytes += distinct.size() * kAlphabet[layer] * 4;
  }
  return total;
}

TEST(DfaSet, OperationsMatchExplicitSets) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    Model a = random_model(rng, rng() % 120), b = random_model(rng, rng() % 120);
    Set sa = build(mgr, a), sb = build(mgr, b);
    Model u, in, diff;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::inserter(u, u.end()));
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(in, in.end()));
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(diff, diff.end()));
    EXPECT_EQ(contents(sa | sb), u);
    EXPECT_EQ(contents(sa & sb), in);
    EXPECT_EQ(contents(sa - sb), diff);
    EXPECT_EQ(sa.count(), a.size());
    EXPECT_EQ((sa | sb).count(), u.size());
    EXPECT_EQ(sa.states(), minimal_states(a));
    EXPECT_EQ((sa - sb).states(), minimal_states(diff));
    // measure(): positions, states and bytes in one walk, against the brute-force figures.
    std::uint64_t union_bytes = 0;
    const std::size_t union_states = minimal_states(u, &union_bytes);
    const Set::Measure mu = (sa | sb).measure();
    EXPECT_EQ(mu.positions, u.size());
    EXPECT_EQ(mu.states, union_states);
    EXPECT_EQ(mu.bytes, union_bytes);
    EXPECT_EQ(mu.bytes, (sa | sb).bytes());
    // membership of every string of the universe
    mgr.universe().enumerate([&](const Str& s) {
      EXPECT_EQ(sa.contains(s), a.count(s) == 1);
      return true;
    });
  }
}

// Two threads: the operations split over them give the explicit results, and the very states one
// thread builds (the same roots in the same table: no state was built twice). The image too.
TEST(DfaSet, TwoThreadsBuildTheSameStatesAsOne) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(11);
  std::vector<Manager::ChangeId> ids;
  for (unsigned k = 0; k < 6;
       ++k) {  // swap two characters at k, and move 1 to 2 at a later 3-letter position
    const unsigned later = std::vector<unsigned>{1, 2, 4, 5}[k % 4];
    std::vector<Relabel> relabels{Relabel{k, {{0, 1}, {1, 0}}}};
    if (later != k) relabels.push_back(Relabel{later, {{1, 2}, {0, 0}}});
    ids.push_back(mgr.intern(Change{relabels}));
  }
  for (int round = 0; round < 30; ++round) {
    Model a = random_model(rng, rng() % 150), b = random_model(rng, rng() % 150);
    Set sa = build(mgr, a), sb = build(mgr, b);
    mgr.set_threads(2, 0);  // split even these small operations
    mgr.clear_operation_cache();
    Set u2 = sa | sb, i2 = sa & sb, d2 = sa - sb, img2 = sa.change_all(ids),
        within2 = sa.change_all_within(ids, sb);
    mgr.set_threads(1);
    mgr.clear_operation_cache();
    Set u1 = sa | sb, i1 = sa & sb, d1 = sa - sb, img1 = sa.change_all(ids),
        within1 = sa.change_all_within(ids, sb);
    EXPECT_EQ(u2, u1);
    EXPECT_EQ(i2, i1);
    EXPECT_EQ(d2, d1);
    EXPECT_EQ(img2, img1);
    EXPECT_EQ(within2, within1);
    Model u;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::inserter(u, u.end()));
    EXPECT_EQ(contents(u2), u);
    EXPECT_EQ(u2.states(), minimal_states(u));
  }
  EXPECT_GT(mgr.parallel_stats().sections, 0u);
}

// restrict_to keeps the set on the care set and is free outside it; on sets that agree with a
// simple set on the care set it finds fewer states.
TEST(DfaSet, RestrictAgreesOnTheCareSet) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(11);
  std::size_t smaller = 0;
  for (int round = 0; round < 40; ++round) {
    Model a = random_model(rng, rng() % 200), care = random_model(rng, 1 + rng() % 200);
    Set sa = build(mgr, a), sc = build(mgr, care);
    Set r = sa.restrict_to(sc);
    EXPECT_EQ(r & sc, sa & sc) << "round " << round;
    smaller += r.states() < sa.states();
  }
  EXPECT_GT(smaller, 10u);
  // Where the care set lies inside the set, anything containing it will do: the universe.
  Model a = random_model(rng, 300), care;
  for (auto& s : a)
    if (s[0] == 0) care.insert(s);
  Set sa = build(mgr, a);
  EXPECT_EQ(sa.restrict_to(build(mgr, care)), mgr.universe());
  EXPECT_TRUE(sa.restrict_to(mgr.empty()).is_empty());
}

TEST(DfaSet, CanonicalFormMakesEqualSetsIdentical) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(11);
  Model a = random_model(rng, 200), b = random_model(rng, 200);
  Set sa = build(mgr, a), sb = build(mgr, b);
  EXPECT_EQ((sa | sb).root(), (sb | sa).root());
  EXPECT_EQ(((sa - sb) | (sa & sb)).root(), sa.root());
  // Built in reverse insertion order, one at a time: same root.
  Set acc = mgr.empty();
  for (auto it = a.rbegin(); it != a.rend(); ++it) acc = acc | mgr.singleton(*it);
  EXPECT_EQ(acc.root(), sa.root());
  EXPECT_TRUE((sa - sa).is_empty());
  EXPECT_EQ(mgr.universe().count(), 2u * 3 * 3 * 2 * 3 * 3);
  EXPECT_EQ(mgr.universe().states(), kAlphabet.size() + 1);
}

TEST(DfaSet, ChangeRelabelsLikeTheExplicitMap) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(3);
  std::vector<Change> changes = {
      Change{{Relabel{0, {{0, 1}}}, Relabel{2, {{1, 0}}},
              Relabel{4, {{0, 1}, {2, 1}}}}},                        // a move with capture
      Change{{Relabel{5, {{2, 0}, {1, 0}}}}},                        // merging relabel
      Change{{Relabel{3, {{1, 0}}}, Relabel{1, {{0, 2}, {2, 0}}}}},  // unsorted positions
  };
  for (const Change& ch : changes) {
    auto id = mgr.intern(ch), inv = mgr.intern(ch.inverse());
    for (int round = 0; round < 10; ++round) {
      Model a = random_model(rng, rng() % 150);
      Model expect, expect_inv;
      for (auto& s : a) {
        // forward: all relabels must match a `before`; each before maps to its after(s)
        std::vector<Str> out{s}, back{s};
        for (auto& r : ch.relabels) {
          std::vector<Str> next, next_back;
          for (auto& x : out)
            for (auto [bef, aft] : r.pairs)
              if (x[r.position] == bef) {
                Str y = x;
                y[r.position] = aft;
                next.push_back(y);
              }
          for (auto& x : back)
            for (auto [bef, aft] : r.pairs)
              if (x[r.position] == aft) {
                Str y = x;
                y[r.position] = bef;
                next_back.push_back(y);
              }
          out = next, back = next_back;
        }
        expect.insert(out.begin(), out.end());
        expect_inv.insert(back.begin(), back.end());
      }
      Set sa = build(mgr, a);
      EXPECT_EQ(contents(sa.change(id)), expect);
      EXPECT_EQ(contents(sa.change(inv)), expect_inv);
    }
  }
  // The partitioned image of several changes at once equals the union of the single changes.
  std::vector<Manager::ChangeId> ids;
  for (const Change& ch : changes)
    ids.push_back(mgr.intern(ch)), ids.push_back(mgr.intern(ch.inverse()));
  ids.push_back(mgr.intern(Change{}));  // the identity
  for (int round = 0; round < 20; ++round) {
    Set sa = build(mgr, random_model(rng, rng() % 200));
    std::vector<Set> one_by_one;
    for (auto id : ids) one_by_one.push_back(sa.change(id));
    EXPECT_EQ(sa.change_all(ids).root(), unite_all(one_by_one, mgr).root());
    Set within = build(mgr, random_model(rng, 150));
    EXPECT_EQ(sa.change_all_within(ids, within).root(),
              (unite_all(one_by_one, mgr) & within).root());
  }
  EXPECT_THROW(mgr.intern(Change{{Relabel{9, {{0, 1}}}}}), std::invalid_argument);
  EXPECT_THROW(mgr.intern(Change{{Relabel{0, {{0, 2}}}}}), std::invalid_argument);
}

TEST(DfaSet, GarbageCollectionKeepsLiveSets) {
  Manager mgr(kAlphabet, 64u << 20);
  std::mt19937 rng(5);
  Model keep = random_model(rng, 150);
  Set kept = build(mgr, keep);
  for (int i = 0; i < 20; ++i) build(mgr, random_model(rng, 150));  // garbage
  std::size_t before = mgr.live_nodes();
  mgr.collect_garbage();
  EXPECT_LT(mgr.live_nodes(), before);
  EXPECT_EQ(mgr.live_nodes(), kept.states() + 1);  // + the dead state (accept is counted in states)
  EXPECT_EQ(contents(kept), keep);
  EXPECT_EQ(build(mgr, keep).root(), kept.root());  // still canonical after the table was rebuilt
}

TEST(DfaSet, RefusesCleanlyOverTheMemoryBudget) {
  EXPECT_THROW(Manager(kAlphabet, 1000), DfaMemoryError);
  // 20 binary positions: a random set of 20000 strings needs far more than 200k nodes' worth. With
  // two threads the table grows while one waits, and the refusal stops both.
  for (unsigned threads : {1u, 2u}) {
    std::vector<unsigned> bits(20, 2);
    Manager mgr(bits, 2u << 20);
    mgr.set_threads(threads, 0);
    std::mt19937 rng(1);
    Set acc = mgr.empty();
    EXPECT_THROW(
        {
          for (int i = 0; i < 4000; ++i) {  // batches of 50: unions with work under many prefixes
            std::vector<Set> batch;
            for (int j = 0; j < 50; ++j) {
              Str s(20);
              for (auto& c : s) c = static_cast<std::uint8_t>(rng() & 1);
              batch.push_back(mgr.singleton(s));
            }
            acc = acc | unite_all(batch, mgr);
          }
        },
        DfaMemoryError);
    EXPECT_LE(mgr.table_bytes(), mgr.budget_bytes());
    EXPECT_EQ(mgr.threads(), threads);
    if (threads > 1) {
      EXPECT_GT(mgr.parallel_stats().sections, 0u);
    }
  }
}

TEST(DfaSet, SaveAndLoadRoundTrip) {
  std::mt19937 rng(9);
  Model a = random_model(rng, 300);
  std::string path = testing::TempDir() + "dfa_set_roundtrip.zdfa";
  {
    Manager mgr(kAlphabet, 64u << 20);
    Set sa = build(mgr, a);
    EXPECT_GT(save_set(sa, path), 0u);
    Set back = load_set(mgr, path);
    EXPECT_EQ(back.root(), sa.root());
  }
  // A set file is a verified run file of its own record type.
  zermelo::RunInfo info = zermelo::verify_run(path);
  EXPECT_EQ(info.options.record_type, "zermelo.dfa_set");
  Manager fresh(kAlphabet, 64u << 20);
  Set loaded = load_set(fresh, path);
  EXPECT_EQ(contents(loaded), a);
  EXPECT_EQ(loaded.root(), build(fresh, a).root());
  EXPECT_EQ(loaded.states(), minimal_states(a));
  Set empty_set = fresh.empty();
  save_set(empty_set, path + ".empty");
  EXPECT_TRUE(load_set(fresh, path + ".empty").is_empty());
  Set all = fresh.universe();
  save_set(all, path + ".all");
  EXPECT_EQ(load_set(fresh, path + ".all"), all);
  std::remove(path.c_str());
  std::remove((path + ".empty").c_str());
  std::remove((path + ".all").c_str());
}

// Writes `data` to `path`.
void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

// Expects load_set to throw a SetFileError (also a RunFileError) whose message contains `words`.
void expect_set_file_error(Manager& mgr, const std::string& path, const std::string& words) {
  try {
    load_set(mgr, path);
    ADD_FAILURE() << path << " loaded, expected an error about '" << words << "'";
  } catch (const zermelo::RunFileError& e) {
    EXPECT_NE(dynamic_cast<const SetFileError*>(&e), nullptr) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
        << "the message names the file: " << e.what();
  }
}

TEST(DfaSet, DamagedOrForeignSetFilesAreRefusedByName) {
  std::mt19937 rng(10);
  Model a = random_model(rng, 300);
  std::string path = testing::TempDir() + "dfa_set_damaged.zdfa";
  Manager mgr(kAlphabet, 64u << 20);
  save_set(build(mgr, a), path);
  std::string data;
  {
    std::ifstream f(path, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(data.size(), 4096u + 64u);  // a 4 KiB run header, the blocks, the footer

  std::string flipped = data;  // one bit flipped inside the first (compressed) block
  flipped[4096 + 8] = static_cast<char>(flipped[4096 + 8] ^ 0x10);
  write_bytes(path + ".flipped", flipped);
  expect_set_file_error(mgr, path + ".flipped", "block 0");

  write_bytes(path + ".short", data.substr(0, data.size() - 20));  // the footer cut off
  expect_set_file_error(mgr, path + ".short", "truncated");

  write_bytes(path + ".stub", data.substr(0, 100));
  expect_set_file_error(mgr, path + ".stub", "truncated");

  write_bytes(path + ".text", std::string(5000, 'x'));
  expect_set_file_error(mgr, path + ".text", "not a Zermelo run file");

  {  // a sound run file that is not a set
    zermelo::RunOptions o;
    o.record_type = "u64";
    zermelo::RunWriter w(path + ".u64", o);
    w.push<std::uint64_t>(7);
    w.finish();
  }
  expect_set_file_error(mgr, path + ".u64", "not a DFA set file");

  Manager other({3, 3, 3}, 64u << 20);
  expect_set_file_error(other, path, "strings of length 6");
  expect_set_file_error(mgr, path + ".missing", "dfa_set_damaged.zdfa.missing");
  for (const char* suffix : {"", ".flipped", ".short", ".stub", ".text", ".u64"})
    std::remove((path + suffix).c_str());
}

}  // namespace
