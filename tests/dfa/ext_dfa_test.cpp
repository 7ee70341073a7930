// External DFA sets against the in-RAM ones on random languages: the canonical form (equal sets,
// equal digests and bytes; the round trip back into RAM), union, intersection and difference out
// of core giving the in-RAM result's digest, and damaged or foreign files refused by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/test_util.hpp"
#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/dfa/ext_dfa.hpp"

namespace {

using namespace zermelo::dfa;
namespace fs = std::filesystem;
using Str = std::vector<std::uint8_t>;

using Scratch = zermelo::testing::ScratchDir;  // one per test, named after it

Set random_set(Manager& m, std::mt19937& rng, std::size_t n) {
  std::vector<Set> parts;
  for (std::size_t i = 0; i < n; ++i) {
    Str s(m.length());
    for (unsigned j = 0; j < m.length(); ++j)
      s[j] = static_cast<std::uint8_t>(rng() % m.alphabet(j));
    parts.push_back(m.singleton(s));
  }
  return unite_all(parts, m);
}

ExtOptions options(const Scratch& s) { return ExtOptions{s / "scratch", 96ull << 20}; }

// Every operation out of core on (a, b) against the in-RAM result, by digest and by set.
void check_ops(Manager& m, const Set& a, const Set& b, const Scratch& s) {
  const ExtDfa ea = save_ext(a, s / "a"), eb = save_ext(b, s / "b");
  const std::pair<ExtOp, Set> cases[] = {
      {ExtOp::kUnion, a | b}, {ExtOp::kIntersect, a & b}, {ExtOp::kMinus, a - b}};
  for (const auto& [op, want] : cases) {
    const ExtDfa got = ext_apply(op, ea, eb, s / "out", options(s));
    EXPECT_EQ(got.digest, save_ext(want, s / "want").digest) << static_cast<int>(op);
    EXPECT_EQ(got.total_states(), want.states());
    EXPECT_TRUE(load_ext(m, open_ext(s / "out")) == want);
  }
}

TEST(ExtDfa, CanonicalFormRoundTripsAndIgnoresTheTable) {
  Scratch s;
  std::mt19937 rng(7);
  Manager m({2, 3, 3, 2, 3, 3}, 64u << 20);
  for (int round = 0; round < 20; ++round) {
    Set x = random_set(m, rng, rng() % 60);
    ExtDfa e = save_ext(x, s / "x");
    EXPECT_EQ(e.total_states(), x.states());
    EXPECT_TRUE(load_ext(m, open_ext(s / "x")) == x);
    // The same set built in another order, in another manager: the same bytes.
    Manager other({2, 3, 3, 2, 3, 3}, 64u << 20);
    Set filler = random_set(other, rng, 40);
    Set y = load_ext(other, e) | (filler - filler);
    EXPECT_EQ(save_ext(y, s / "y").digest, e.digest);
    EXPECT_EQ(canonical_digest(x), e.digest) << "the digest without the files";
    EXPECT_EQ(canonical_digest(y), e.digest);
    for (unsigned i = 0; i < e.length(); ++i) {
      std::ifstream f1(e.layer_path(i), std::ios::binary),
          f2(s / ("y/layer-" + std::to_string(i) + ".run"), std::ios::binary);
      std::string b1((std::istreambuf_iterator<char>(f1)), {}),
          b2((std::istreambuf_iterator<char>(f2)), {});
      EXPECT_EQ(b1, b2) << "layer " << i;
    }
  }
}

TEST(ExtDfa, DifferentSetsHaveDifferentDigests) {
  Scratch s;
  Manager m({2, 3, 3, 2, 3, 3}, 64u << 20);
  Set a = m.singleton({0, 0, 0, 0, 0, 0}), b = m.singleton({0, 0, 0, 0, 0, 1});
  EXPECT_NE(save_ext(a, s / "a").digest, save_ext(b, s / "b").digest);
  EXPECT_NE(save_ext(m.empty(), s / "e").digest, save_ext(a, s / "a").digest);
  EXPECT_EQ(canonical_digest(m.empty()), save_ext(m.empty(), s / "e").digest);
  EXPECT_NE(canonical_digest(a), canonical_digest(b));
}

TEST(ExtDfa, OperationsOutOfCoreMatchTheInRamOnes) {
  Scratch s;
  std::mt19937 rng(11);
  Manager m({2, 3, 3, 2, 3, 3}, 64u << 20);
  for (int round = 0; round < 40; ++round) {
    Set a = random_set(m, rng, rng() % 80), b = random_set(m, rng, rng() % 80);
    if (round % 5 == 1) b = a | random_set(m, rng, 5);  // overlapping, nested
    check_ops(m, a, b, s);
  }
  check_ops(m, m.empty(), m.universe(), s);
  check_ops(m, m.universe(), m.empty(), s);
  check_ops(m, m.universe(), m.universe(), s);
  check_ops(m, m.empty(), m.empty(), s);
}

TEST(ExtDfa, WideAlphabetsUseWiderRecords) {
  Scratch s;
  std::mt19937 rng(3);
  Manager m({9, 5, 17, 6, 9}, 64u << 20);  // widths 16 and 32
  for (int round = 0; round < 10; ++round)
    check_ops(m, random_set(m, rng, 200), random_set(m, rng, 200), s);
}

// The first message of whatever open_ext, then a full read, throw.
std::string refusal(const std::string& dir) {
  try {
    verify_ext(open_ext(dir));
  } catch (const ExtDfaError& e) {
    return e.what();
  }
  return "";
}

TEST(ExtDfa, DamagedOrForeignSetsAreRefusedByName) {
  Scratch s;
  std::mt19937 rng(5);
  Manager m({2, 3, 3, 2, 3, 3}, 64u << 20);
  const Set x = random_set(m, rng, 300);
  const std::string dir = s / "x";
  auto fresh = [&] { return save_ext(x, dir); };

  ExtDfa e = fresh();
  EXPECT_EQ(refusal(dir), "");
  fs::remove(e.header_path());  // unfinished: no header
  EXPECT_NE(refusal(dir).find("set.run"), std::string::npos);

  e = fresh();
  fs::resize_file(e.layer_path(3), fs::file_size(e.layer_path(3)) / 2);  // truncated layer
  EXPECT_NE(refusal(dir).find("layer-3.run"), std::string::npos);

  e = fresh();
  {  // a flipped byte in a layer's payload
    std::fstream f(e.layer_path(2), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    char c = 0;
    f.read(&c, 1);
    f.seekp(200);
    c = static_cast<char>(c ^ 0x10);
    f.write(&c, 1);
  }
  EXPECT_NE(refusal(dir).find("layer-2.run"), std::string::npos);

  e = fresh();  // a valid layer of another set in its place
  const ExtDfa other = save_ext(random_set(m, rng, 300) | x, s / "other");
  fs::copy_file(other.layer_path(4), e.layer_path(4), fs::copy_options::overwrite_existing);
  EXPECT_NE(refusal(dir).find("layer-4.run"), std::string::npos);

  e = fresh();  // another game's strings
  Manager m2({2, 3, 3, 2, 3, 4}, 64u << 20);
  EXPECT_THROW(load_ext(m2, open_ext(dir)), ExtDfaError);
  EXPECT_THROW(ext_apply(ExtOp::kUnion, e, save_ext(m2.universe(), s / "u"), s / "o", options(s)),
               ExtDfaError);
}

}  // namespace
