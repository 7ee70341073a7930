// An append-only log of fixed-size records that a killed job reads back to resume.
//
// Why: some long jobs (an Othello proof search) are not a pipeline of stages with a manifest, but
// a stream of expensive, independent answers (one exact solve each). Logging every answer as it
// arrives lets the same command, run again, replay them instead of recomputing, so a kill loses at
// most the answer in flight. The log names the job it belongs to (an identity text, checked on
// open), each record carries its own checksum, and a torn last record (a power cut mid-write) is
// dropped. Format: docs/run-format.md, "Record logs".
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace zermelo {

class RecordLog {
 public:
  // Opens the log at `path`, or creates it. An existing log must have the same identity and
  // record size, else std::runtime_error names the file and both identities (a log of another
  // job is never replayed). A corrupt record before the last throws; a torn last one is cut off.
  RecordLog(const std::string& path, const std::string& identity, std::size_t record_size);
  ~RecordLog();
  RecordLog(const RecordLog&) = delete;
  RecordLog& operator=(const RecordLog&) = delete;

  // The records found when the log was opened, back to back.
  const std::vector<unsigned char>& existing() const { return existing_; }
  std::size_t existing_count() const { return existing_.size() / record_size_; }

  // Appends one record (record_size bytes); safe from several threads. The write reaches the
  // kernel at once (a kill loses nothing) and the disk within `sync_every` (a power cut).
  void append(const void* record);

  // Deletes the log: the job it served has finished.
  void remove();

  const std::string& path() const { return path_; }

 private:
  void create(const std::string& identity);
  void load(const std::string& identity);

  std::string path_;
  std::size_t record_size_;
  int fd_ = -1;
  std::uint64_t count_ = 0;  // records in the file
  std::vector<unsigned char> existing_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_sync_;
  static constexpr std::chrono::seconds sync_every{5};
};

}  // namespace zermelo
