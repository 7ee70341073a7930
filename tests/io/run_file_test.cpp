#include "zermelo/io/run_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "tests/test_util.hpp"

namespace zermelo {
namespace {

struct Rec {
  std::uint64_t key;
  std::uint32_t a;
  std::uint16_t b;
  std::uint16_t c;
};

std::vector<Rec> make_records(std::size_t n, bool sorted) {
  std::mt19937_64 rng(42);
  std::vector<Rec> v(n);
  std::uint64_t k = 0;
  for (auto& r : v) {
    k += sorted ? 1 + rng() % 100 : 0;
    r = Rec{sorted ? k : rng(), static_cast<std::uint32_t>(rng()),
            static_cast<std::uint16_t>(rng() % 7), 0};
  }
  return v;
}

std::string write_run(const std::string& path, const std::vector<Rec>& v, RunOptions o) {
  o.record_size = sizeof(Rec);
  RunWriter w(path, o);
  for (auto& r : v) w.push(r);
  return w.finish().digest_hex();
}

std::vector<Rec> read_all(const std::string& path, bool decode_ahead = false) {
  RunReader r(path, IoOptions{}, decode_ahead);
  std::vector<Rec> out;
  Rec x;
  while (r.next(x)) out.push_back(x);
  return out;
}

void flip_byte(const std::string& path, std::uint64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x10);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
}

bool same(const std::vector<Rec>& a, const std::vector<Rec>& b) {
  // memcmp may not be given the null data() of an empty vector, even for 0 bytes.
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Rec)) == 0);
}

class RunFileRoundTrip : public ::testing::TestWithParam<std::tuple<std::size_t, int, bool, bool>> {
};

TEST_P(RunFileRoundTrip, RecordsComeBackIdentical) {
  auto [n, level, delta, shuffle] = GetParam();
  testing::ScratchDir dir;
  auto v = make_records(n, delta);
  RunOptions o;
  o.zstd_level = level;
  o.delta_u64_keys = delta;
  o.shuffle_bytes = shuffle;
  o.block_bytes = 64 << 10;  // many blocks
  o.record_type = "test.rec";
  o.sort_key = "key asc";
  write_run(dir / "a.run", v, o);
  EXPECT_TRUE(same(read_all(dir / "a.run"), v));
  EXPECT_TRUE(same(read_all(dir / "a.run", true), v));  // decoded ahead by a worker
  RunInfo info = verify_run(dir / "a.run");
  EXPECT_EQ(info.record_count, n);
  EXPECT_EQ(info.options.record_type, "test.rec");
  EXPECT_EQ(info.options.sort_key, "key asc");
  EXPECT_EQ(info.options.shuffle_bytes, shuffle && level != 0);  // byte planes only feed zstd
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run.tmp"));
}

INSTANTIATE_TEST_SUITE_P(Sizes, RunFileRoundTrip,
                         ::testing::Combine(::testing::Values(0, 1, 4095, 300000),
                                            ::testing::Values(0, 1, 5), ::testing::Bool(),
                                            ::testing::Bool()));

// Byte planes are transposed 16 records by 16 or 8 bytes at a time (8 by 8 without SSE2), with
// leftover bytes and records by hand: every record size and count around those edges must come
// back identical.
TEST(RunFile, BytePlanesRoundTripAnyRecordSize) {
  testing::ScratchDir dir;
  std::mt19937_64 rng(5);
  for (std::uint32_t rs : {1u, 3u, 8u, 10u, 12u, 16u, 17u, 24u, 32u, 40u})
    for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 33u, 1000u, 4099u}) {
      std::vector<unsigned char> data(n * rs);
      for (auto& b : data) b = static_cast<unsigned char>(rng() % 3 == 0 ? rng() : 0);
      RunOptions o;
      o.record_size = rs;
      o.shuffle_bytes = true;
      o.block_bytes = 1000;  // several blocks, most not a multiple of 8 records
      const std::string path = dir / ("p" + std::to_string(rs) + "-" + std::to_string(n) + ".run");
      RunWriter w(path, o);
      w.append_many(data.data(), n);
      EXPECT_TRUE(w.finish().options.shuffle_bytes);
      RunReader r(path);
      std::vector<unsigned char> back(rs);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(r.next(back.data()));
        ASSERT_EQ(std::memcmp(back.data(), data.data() + i * rs, rs), 0)
            << "record size " << rs << ", record " << i << " of " << n;
      }
      EXPECT_FALSE(r.next(back.data()));
    }
}

// The layout on disk is the documented one (docs/run-format.md): byte j of record i at j * n + i.
// Random bytes do not compress, so the block is stored as its planes and can be read directly.
// Record sizes cover each transpose path (whole 16-byte columns, an 8-byte one, bytes left over).
TEST(RunFile, BytePlanesLayoutIsDocumented) {
  testing::ScratchDir dir;
  std::mt19937_64 rng(9);
  const std::size_t n = 203;
  for (std::uint32_t rs : {8u, 12u, 16u, 24u, 40u}) {
    SCOPED_TRACE("record size " + std::to_string(rs));
    std::vector<unsigned char> data(n * rs);
    for (auto& b : data) b = static_cast<unsigned char>(rng());
    RunOptions o;
    o.record_size = rs;
    o.shuffle_bytes = true;
    const std::string path = dir / ("l" + std::to_string(rs) + ".run");
    RunWriter w(path, o);
    w.append_many(data.data(), n);
    RunInfo info = w.finish();
    ASSERT_EQ(info.blocks.size(), 1u);
    ASSERT_EQ(info.blocks[0].stored_bytes, n * rs);  // stored, not compressed
    std::ifstream f(path, std::ios::binary);
    f.seekg(static_cast<std::streamoff>(info.blocks[0].offset));
    std::vector<unsigned char> planes(n * rs);
    f.read(reinterpret_cast<char*>(planes.data()), static_cast<std::streamsize>(planes.size()));
    for (std::size_t i = 0; i < n; ++i)
      for (std::uint32_t j = 0; j < rs; ++j)
        ASSERT_EQ(planes[j * n + i], data[i * rs + j]) << "record " << i << " byte " << j;
  }
}

// A pass that copies some blocks as stored and re-encodes the others writes the same records;
// the index carries each block's first key, also for copied blocks. Also when the reader decodes
// ahead (the worker has decoded the block the caller then takes as stored), and when hints that
// blocks will be copied are wrong half the time (a block left undecoded is then read by records).
TEST(RunFile, StoredBlocksCopyIntoAnotherRun) {
  testing::ScratchDir dir;
  auto v = make_records(20000, true);
  for (int mode : {0, 1, 2}) {
    const bool ahead = mode > 0, hints = mode == 2;
    for (int level : {0, 1}) {
      SCOPED_TRACE(!ahead ? "in step" : hints ? "decode ahead with hints" : "decode ahead");
      RunOptions o;
      o.record_size = sizeof(Rec);
      o.zstd_level = level;
      o.delta_u64_keys = true;
      o.shuffle_bytes = true;
      o.block_bytes = 4096;
      const std::string a = dir / ("a" + std::to_string(level) + ".run"),
                        b = dir / ("b" + std::to_string(level) + ".run");
      write_run(a, v, o);
      RunReader in(a, IoOptions{}, ahead);
      RunWriter out(b, o);
      ASSERT_TRUE(out.can_take_blocks_of(in.info()));
      std::vector<std::byte> stored;
      std::size_t copied = 0;
      const void* span;
      for (;;) {
        if (hints && in.at_block_end() &&
            in.next_block_index() + 2 < in.info().blocks.size())  // the next two blocks
          in.will_copy_blocks_below(in.info().blocks[in.next_block_index() + 2].first_key);
        if (in.at_block_end() && in.next_block_index() < in.info().blocks.size() &&
            in.next_block_index() % 3 == 0) {
          in.read_stored_block(stored);
          out.append_stored_block(in.info().blocks[in.next_block_index() - 1], stored);
          ++copied;
          continue;
        }
        const std::size_t n =
            in.next_span(&span, 100);  // part blocks: copies end partly filled ones
        if (n == 0) break;
        out.append_many(span, n);
      }
      const RunInfo info = out.finish();
      EXPECT_GT(copied, 3u);
      EXPECT_TRUE(same(read_all(b), v)) << "level " << level;
      verify_run(b);
      for (const BlockInfo& bi : info.blocks) ASSERT_EQ(bi.first_key, v[bi.first_record].key);
      RunOptions other = o;
      other.shuffle_bytes = !in.info().options.shuffle_bytes;  // (a raw run never stores planes)
      other.zstd_level = 1;
      EXPECT_FALSE(
          RunWriter(dir / "c.run", other).can_take_blocks_of(in.info()));  // another layout
    }
  }
}

TEST(RunFile, SameInputSameDigest) {
  testing::ScratchDir dir;
  auto v = make_records(100000, true);
  RunOptions o;
  o.delta_u64_keys = true;
  EXPECT_EQ(write_run(dir / "a.run", v, o), write_run(dir / "b.run", v, o));
  v[500].a ^= 1;
  EXPECT_NE(write_run(dir / "a.run", v, o),
            write_run(dir / "b.run", make_records(100000, true), o));
}

TEST(RunFile, BufferedFallbackOnTmpfs) {
  // /dev/shm is tmpfs, which refuses O_DIRECT: the writer must fall back cleanly.
  if (!std::filesystem::exists("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  std::string path = "/dev/shm/zermelo-fallback-" + std::to_string(::getpid()) + ".run";
  auto v = make_records(50000, false);
  write_run(path, v, RunOptions{});
  EXPECT_TRUE(same(read_all(path), v));
  std::filesystem::remove(path);
}

// Sorted records in many small blocks, for the tests of reading part of a run.
std::vector<Rec> write_sorted_small_blocks(const std::string& path, std::size_t n,
                                           std::uint32_t block_bytes) {
  auto v = make_records(n, true);
  RunOptions o;
  o.block_bytes = block_bytes;
  o.delta_u64_keys = true;
  write_run(path, v, o);
  return v;
}

TEST(RunFile, RandomBlockAccess) {
  testing::ScratchDir dir;
  auto v = write_sorted_small_blocks(dir / "a.run", 200000, 32 << 10);
  RunReader r(dir / "a.run");
  ASSERT_GT(r.info().blocks.size(), 10u);
  for (std::size_t b : {std::size_t{7}, std::size_t{0}, r.info().blocks.size() - 1}) {
    auto bytes = r.read_block(b);
    std::uint64_t first = r.info().blocks[b].first_record;
    ASSERT_EQ(bytes.size() % sizeof(Rec), 0u);
    EXPECT_EQ(std::memcmp(bytes.data(), &v[first], bytes.size()), 0);
  }
}

TEST(RunFile, SkipToStartsReadingAtAnyRecord) {
  testing::ScratchDir dir;
  auto v = write_sorted_small_blocks(dir / "a.run", 100000, 16 << 10);
  for (std::uint64_t start : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{4095},
                              std::uint64_t{50000}, std::uint64_t{99999}, std::uint64_t{100000}}) {
    for (bool ahead : {false, true}) {
      RunReader r(dir / "a.run", IoOptions{}, ahead);
      r.skip_to(start);
      Rec x;
      std::uint64_t i = start;
      while (r.next(x)) {
        ASSERT_LT(i, v.size());
        ASSERT_EQ(std::memcmp(&x, &v[i], sizeof x), 0) << "from " << start << " at " << i;
        ++i;
      }
      EXPECT_EQ(i, v.size()) << "from " << start;
    }
  }
}

TEST(RunFileFaults, FlippedByteInEveryBlockIsCaughtAndNamed) {
  testing::ScratchDir dir;
  auto v = make_records(100000, false);
  RunOptions o;
  o.block_bytes = 128 << 10;
  write_run(dir / "good.run", v, o);
  RunInfo info = inspect_run(dir / "good.run");
  ASSERT_GE(info.blocks.size(), 3u);
  for (std::size_t b = 0; b < info.blocks.size(); ++b) {
    std::string bad = dir / ("bad" + std::to_string(b) + ".run");
    std::filesystem::copy_file(dir / "good.run", bad);
    flip_byte(bad, info.blocks[b].offset + info.blocks[b].stored_bytes / 2);
    try {
      verify_run(bad);
      FAIL() << "flipped byte in block " << b << " not detected";
    } catch (const RunFileError& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(bad), std::string::npos) << msg;
      EXPECT_NE(msg.find("block " + std::to_string(b)), std::string::npos) << msg;
      EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
    }
    EXPECT_THROW(read_all(bad), RunFileError);
    EXPECT_THROW(read_all(bad, true), RunFileError);  // the worker's error reaches the caller
  }
}

TEST(RunFileFaults, HeaderAndFooterCorruption) {
  testing::ScratchDir dir;
  write_run(dir / "good.run", make_records(1000, false), RunOptions{});
  auto expect_error = [&](const std::string& name, auto mutate, const std::string& needle) {
    std::string p = dir / name;
    std::filesystem::copy_file(dir / "good.run", p);
    mutate(p);
    try {
      inspect_run(p);
      ADD_FAILURE() << name << ": no error";
    } catch (const RunFileError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error(
      "magic.run", [](const std::string& p) { flip_byte(p, 0); }, "wrong magic");
  expect_error(
      "version.run", [](const std::string& p) { flip_byte(p, 8); }, "unsupported format version");
  expect_error(
      "header.run", [](const std::string& p) { flip_byte(p, 30); }, "header checksum mismatch");
  expect_error(
      "truncated.run",
      [](const std::string& p) {
        std::filesystem::resize_file(p, std::filesystem::file_size(p) - 10);
      },
      "truncated");
  expect_error(
      "short.run", [](const std::string& p) { std::filesystem::resize_file(p, 100); }, "truncated");
  expect_error(
      "footer.run", [](const std::string& p) { flip_byte(p, std::filesystem::file_size(p) - 20); },
      "footer checksum mismatch");
  std::ofstream(dir / "empty.run").close();
  EXPECT_THROW(inspect_run(dir / "empty.run"), RunFileError);
  EXPECT_THROW(inspect_run(dir / "missing.run"), RunFileError);
}

TEST(RunFileFaults, UnfinishedWriterLeavesNothingThatLooksComplete) {
  testing::ScratchDir dir;
  {
    RunWriter w(dir / "a.run", RunOptions{});
    std::uint64_t x = 1;
    for (int i = 0; i < 1000000; ++i) w.push(x);
    // destroyed without finish(): as if the job was aborted by an exception
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run"));
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run.tmp"));
}

TEST(RunFileFaults, KilledWriterLeavesIncompleteTempFile) {
  testing::ScratchDir dir;
  pid_t pid = fork();
  if (pid == 0) {
    RunWriter w(dir / "a.run", RunOptions{});
    std::uint64_t x = 1;
    for (int i = 0; i < 2000000; ++i) w.push(x = x * 6364136223846793005ull + 1);  // incompressible
    _exit(0);  // "killed": no destructor, no finish
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run"));
  ASSERT_TRUE(std::filesystem::exists(dir / "a.run.tmp"));
  try {
    inspect_run(dir / "a.run.tmp");
    FAIL() << "an unfinished file was accepted";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find("incomplete"), std::string::npos) << e.what();
  }
}

TEST(RunFileFaults, FullDiskIsAClearErrorAndLeavesNoFile) {
  testing::ScratchDir dir;
  pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{1 << 20, 1 << 20};  // a 1 MiB file-size limit stands in for a full disk
    setrlimit(RLIMIT_FSIZE, &lim);
    try {
      RunOptions o;
      o.zstd_level = 0;
      RunWriter w(dir / "a.run", o);
      std::uint64_t x = 0;
      for (int i = 0; i < 1000000; ++i) w.push(++x);
      w.finish();
      _exit(2);  // should not get here
    } catch (const RunFileError& e) {
      std::string msg = e.what();
      _exit(msg.find("File too large") != std::string::npos &&
                    msg.find("a.run.tmp") != std::string::npos
                ? 0
                : 3);
    }
    _exit(4);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run"));
  EXPECT_FALSE(std::filesystem::exists(dir / "a.run.tmp"));
}

}  // namespace
}  // namespace zermelo
