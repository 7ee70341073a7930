// parallel_for (pipeline/parallel_for.hpp): every item runs once, and an exception a worker
// throws reaches the caller with its own type, not as a message in a runtime_error.
#include "pipeline/parallel_for.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "zermelo/io/run_file.hpp"

namespace zermelo {
namespace {

TEST(ParallelFor, RunsEveryItemOnceWithThreadLocalScratch) {
  std::vector<int> seen(10000, 0);
  parallel_for<std::vector<int>>(4, seen.size(), 64,
                                 [&](std::size_t t, std::size_t i, std::vector<int>& mine) {
                                   EXPECT_LT(t, worker_count(4));
                                   mine.push_back(static_cast<int>(i));
                                   ++seen[i];
                                 });
  for (int n : seen) EXPECT_EQ(n, 1);
}

TEST(ParallelFor, AWorkersExceptionKeepsItsType) {
  auto throw_at = [](std::size_t bad) {
    parallel_for<int>(3, 5000, 16, [bad](std::size_t, std::size_t i, int&) {
      if (i == bad) throw RunFileError("block 7 of x.run: checksum mismatch");
    });
  };
  EXPECT_THROW(throw_at(4321), RunFileError);
  try {
    throw_at(0);
    FAIL() << "nothing thrown";
  } catch (const RunFileError& e) {
    EXPECT_STREQ(e.what(), "block 7 of x.run: checksum mismatch");
  }
  // Not only std::exceptions: whatever was thrown is rethrown.
  EXPECT_THROW(parallel_for<int>(2, 100, 1,
                                 [](std::size_t, std::size_t i, int&) {
                                   if (i == 50) throw 42;
                                 }),
               int);
  EXPECT_THROW(parallel_for<int>(2, 100, 1,
                                 [](std::size_t, std::size_t, int&) {
                                   throw std::invalid_argument("every item");
                                 }),
               std::invalid_argument);
}

TEST(ParallelFor, AThreadSkipsItsShareAfterAThrow) {
  std::atomic<int> done{0};
  EXPECT_THROW(parallel_for<int>(1, 100, 1,
                                 [&](std::size_t, std::size_t i, int&) {
                                   if (i == 10) throw std::out_of_range("ten");
                                   ++done;
                                 }),
               std::out_of_range);
  EXPECT_EQ(done.load(), 10);  // one thread: its share after the throw is skipped
}

}  // namespace
}  // namespace zermelo
