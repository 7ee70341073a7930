// A request that never completes must end in an error naming the file, not a hang: a FIFO that
// nobody reads stands in for a stalled device (a write bigger than the pipe waits for ever).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>

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

}  // namespace
}  // namespace zermelo
