// A request that never completes must end in an error naming the file, not a hang; one that waits
// longer than IoOptions::retry_seconds is cancelled and issued again, and its bytes arrive once and
// in order. A FIFO stands in for a stalled device: a write bigger than the pipe waits until
// someone reads.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/test_util.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace {

TEST(UringStall, ARequestWithNoCompletionIsAnErrorNamingTheFile) {
  testing::ScratchDir dir;
  const std::string fifo = dir / "stalled";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int keep_open =
      ::open(fifo.c_str(), O_RDWR);  // a reader end, so opening for writing does not block
  ASSERT_GE(keep_open, 0);
  IoOptions io;
  io.stall_seconds = 1;
  io.queue_depth = 1;
  const auto start = std::chrono::steady_clock::now();
  try {
    SequentialWriter w(fifo, io);
    const std::string chunk(1u << 20, 'x');  // more than a pipe holds
    w.write(chunk.data(), chunk.size());
    w.write(chunk.data(), chunk.size());  // waits for the first: it never completes
    FAIL() << "a write that never completes returned";
  } catch (const RunFileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(fifo), std::string::npos) << msg;
    EXPECT_NE(msg.find("no I/O completion for 1 s"), std::string::npos) << msg;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start,
            std::chrono::seconds(30));  // and the writer's end did not wait either
  ::close(keep_open);
}

// Two writes of 1 MiB into a FIFO that nobody reads for 2.5 s: each wait of 1 s cancels and issues
// the write again, and the reader then gets the 2 MiB exactly once, in order.
TEST(UringStall, ARequestWithNoCompletionForAWhileIsIssuedAgain) {
  testing::ScratchDir dir;
  const std::string fifo = dir / "slow";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDWR);  // opening for writing then does not block
  ASSERT_GE(reader, 0);
  constexpr std::size_t kChunk = 1u << 20;
  std::string bytes(2 * kChunk, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i % 251);
  std::string got;
  std::thread drain([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    char buf[1 << 16];
    while (got.size() < bytes.size()) {
      const ssize_t n = ::read(reader, buf, std::min(sizeof buf, bytes.size() - got.size()));
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
  });
  IoOptions io;
  io.retry_seconds = 1;
  io.stall_seconds = 60;
  io.queue_depth = 1;
  const std::uint64_t retries_before = io_retries();
  {
    SequentialWriter w(fifo, io);
    w.write(bytes.data(), kChunk);
    w.write(bytes.data() + kChunk, kChunk);  // waits for the first
    w.write(bytes.data(), 4096);  // a third chunk's start: the second has to be written first
  }
  drain.join();
  EXPECT_GE(io_retries() - retries_before, 1u);
  ASSERT_EQ(got.size(), bytes.size());
  EXPECT_TRUE(got == bytes) << "bytes lost, repeated or out of order";
  ::close(reader);
}

}  // namespace
}  // namespace zermelo
