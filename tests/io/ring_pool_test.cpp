// Files share idle io_uring rings: a pass over many small files (an external DFA set is a file a
// layer) must not set up a ring for each, and a shared ring must never mix two files' bytes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace {

std::string pool_bytes(int file, std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (file * 7 + i) % 26);
  return s;
}

std::string read_pooled(const std::string& path, IoOptions io = {}) {
  SequentialReader r(path, 0, UINT64_MAX, io);
  std::string out(file_size(path), '\0');
  EXPECT_EQ(r.read(out.data(), out.size()), out.size());
  return out;
}

TEST(RingPool, ManySmallFilesShareAFewRingsAndKeepTheirBytes) {
  testing::ScratchDir dir;
  const std::uint64_t before = rings_set_up();
  for (int f = 0; f < 200; ++f) {
    SequentialWriter w(dir / std::to_string(f), IoOptions{});
    const std::string bytes = pool_bytes(f, 1000 + 37 * f);
    w.write(bytes.data(), bytes.size());
    w.finish();
  }
  for (int f = 0; f < 200; ++f)
    ASSERT_EQ(read_pooled(dir / std::to_string(f)), pool_bytes(f, 1000 + 37 * f)) << f;
  // One writer's ring and a reader ring per buffer size (small files' buffers are powers of two).
  EXPECT_LE(rings_set_up() - before, 8u);
}

TEST(RingPool, FilesOpenAtOnceEachHaveTheirOwnRing) {
  testing::ScratchDir dir;
  IoOptions io;
  io.chunk_bytes = 4096, io.queue_depth = 2;  // many requests a file, all in flight at once
  {
    SequentialWriter a(dir / "a", io), b(dir / "b", io);
    const std::string x = pool_bytes(1, 100000), y = pool_bytes(2, 100000);
    for (std::size_t i = 0; i < x.size(); i += 5000) {  // interleaved
      a.write(x.data() + i, 5000);
      b.write(y.data() + i, 5000);
    }
    a.finish(), b.finish();
  }
  SequentialReader ra(dir / "a", 0, UINT64_MAX, io), rb(dir / "b", 0, UINT64_MAX, io);
  std::string x(100000, '\0'), y(100000, '\0');
  for (std::size_t i = 0; i < x.size(); i += 3000) {
    const std::size_t n = std::min<std::size_t>(3000, x.size() - i);
    ASSERT_EQ(ra.read(x.data() + i, n), n);
    ASSERT_EQ(rb.read(y.data() + i, n), n);
  }
  EXPECT_EQ(x, pool_bytes(1, 100000));
  EXPECT_EQ(y, pool_bytes(2, 100000));
}

// A reader dropped with its read-ahead in flight waits it out before its ring is shared: the next
// file's bytes are its own.
TEST(RingPool, AReaderClosedWithReadsInFlightLeavesNothingForTheNextFile) {
  testing::ScratchDir dir;
  IoOptions io;
  io.chunk_bytes = 1u << 16, io.queue_depth = 4;
  const std::string big = pool_bytes(3, 1u << 20), small = pool_bytes(4, 70000);
  for (const auto& [name, bytes] : {std::pair{"big", big}, std::pair{"small", small}}) {
    SequentialWriter w(dir / name, io);
    w.write(bytes.data(), bytes.size());
    w.finish();
  }
  for (int round = 0; round < 20; ++round) {
    {
      SequentialReader r(dir / "big", 0, UINT64_MAX, io);
      char c;
      ASSERT_EQ(r.read(&c, 1), 1u);  // four reads queued, one consumed
    }
    ASSERT_EQ(read_pooled(dir / "small", io), small) << round;
  }
}

}  // namespace
}  // namespace zermelo
