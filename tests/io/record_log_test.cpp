// The record log: what is appended is read back in order after a reopen; a log of another job is
// refused; a torn last record is cut off and the log goes on from there; a corrupt record before
// the last, or a foreign file, is an error.
#include "zermelo/io/record_log.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "tests/test_util.hpp"

namespace zermelo {
namespace {

struct Entry {
  std::uint64_t a;
  std::uint32_t b;
  std::uint32_t c;
};

std::vector<Entry> read_back(const RecordLog& log) {
  std::vector<Entry> out(log.existing_count());
  std::memcpy(out.data(), log.existing().data(), log.existing().size());
  return out;
}

void append_entries(RecordLog& log, std::uint64_t from, std::uint64_t to) {
  for (std::uint64_t i = from; i < to; ++i) {
    const Entry e{i * 1000003, static_cast<std::uint32_t>(i), 7};
    log.append(&e);
  }
}

// A log "job" of ten entries in the scratch directory; its path.
std::string log_of_ten(const testing::ScratchDir& dir) {
  const std::string path = dir / "a.log";
  RecordLog log(path, "job", sizeof(Entry));
  append_entries(log, 0, 10);
  return path;
}

TEST(RecordLog, AppendedRecordsAreReadBackInOrder) {
  testing::ScratchDir dir;
  const std::string path = dir / "a.log";
  {
    RecordLog log(path, "job one", sizeof(Entry));
    EXPECT_EQ(log.existing_count(), 0u);
    append_entries(log, 0, 100);
  }
  RecordLog again(path, "job one", sizeof(Entry));
  const std::vector<Entry> got = read_back(again);
  ASSERT_EQ(got.size(), 100u);
  for (std::uint64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(got[i].a, i * 1000003);
    EXPECT_EQ(got[i].b, i);
  }
  append_entries(again, 100, 150);  // appends go on after the old records
  EXPECT_EQ(RecordLog(path, "job one", sizeof(Entry)).existing_count(), 150u);
}

TEST(RecordLog, LogOfAnotherJobIsRefused) {
  testing::ScratchDir dir;
  const std::string path = dir / "a.log";
  { RecordLog log(path, "job one", sizeof(Entry)); }
  try {
    RecordLog other(path, "job two", sizeof(Entry));
    FAIL() << "a log of another job was opened";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another job"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RecordLog(path, "job one", sizeof(Entry) + 8), std::runtime_error);
}

TEST(RecordLog, TornLastRecordIsCutOff) {
  testing::ScratchDir dir;
  const std::string path = log_of_ten(dir);
  const auto full = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, full - 5);  // the last record's checksum half written
  {
    RecordLog log(path, "job", sizeof(Entry));
    EXPECT_EQ(log.existing_count(), 9u);
    append_entries(log, 9, 12);
  }
  RecordLog log(path, "job", sizeof(Entry));
  ASSERT_EQ(log.existing_count(), 12u);
  EXPECT_EQ(read_back(log)[11].b, 11u);
}

TEST(RecordLog, CorruptRecordBeforeTheLastIsAnError) {
  testing::ScratchDir dir;
  const std::string path = log_of_ten(dir);
  const auto size = std::filesystem::file_size(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 5 * (sizeof(Entry) + 8)));
    f.put('\x5a');
  }
  EXPECT_THROW(RecordLog(path, "job", sizeof(Entry)), std::runtime_error);
  {
    std::ofstream f(dir / "text.log");
    f << "not a log at all, but long enough to hold a header\n";
  }
  EXPECT_THROW(RecordLog(dir / "text.log", "job", sizeof(Entry)), std::runtime_error);
}

}  // namespace
}  // namespace zermelo
