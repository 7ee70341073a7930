// The words of a bitmap marked as changed (pipeline/word_changes.hpp), which MPI ranks send each
// other after a level instead of the whole filter: taken once, in index order, with the values
// the words have when taken; marks from many threads at once are all kept.
#include "pipeline/word_changes.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace zermelo::retro {
namespace {

TEST(WordChanges, TakesTheMarkedWordsOnceInIndexOrder) {
  std::vector<std::uint64_t> words(200);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = i * 1000 + 7;
  WordChanges changes(words.size());
  for (std::size_t w : {130u, 5u, 63u, 64u, 5u, 199u}) changes.mark(w);
  EXPECT_EQ(changes.count(), 5u);
  words[64] = 42;  // changed again after its mark: the value taken is the latest
  EXPECT_EQ(changes.take(words.data()),
            (std::vector<std::uint64_t>{5, 5007, 63, 63007, 64, 42, 130, 130007, 199, 199007}));
  EXPECT_EQ(changes.count(), 0u);
  EXPECT_TRUE(changes.take(words.data()).empty());
}

TEST(WordChanges, ForgetClearsTheMarks) {
  std::vector<std::uint64_t> words(10, 1);
  WordChanges changes(words.size());
  changes.mark(3);
  changes.forget();
  EXPECT_EQ(changes.count(), 0u);
  EXPECT_TRUE(changes.take(words.data()).empty());
}

TEST(WordChanges, KeepsEveryMarkOfThreadsAtOnce) {
  constexpr std::size_t kWords = 64 * 40;
  std::vector<std::uint64_t> words(kWords, 0);
  WordChanges changes(kWords);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)  // thread t marks the words w with w % 4 == t
    threads.emplace_back([&changes, t] {
      for (std::size_t w = t; w < kWords; w += 4) changes.mark(w);
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(changes.count(), kWords);
}

}  // namespace
}  // namespace zermelo::retro
