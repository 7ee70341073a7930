// The append-only, checksummed record log (include/zermelo/io/record_log.hpp).
#include "zermelo/io/record_log.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "zermelo/io/durable_text.hpp"

namespace zermelo {
namespace {

constexpr char kLogMagic[] = "zermelo.reclog1\n";  // 16 bytes, no terminator written
constexpr std::size_t kLogMagicSize = sizeof kLogMagic - 1;

void log_put_u32(std::string& s, std::uint32_t v) {
  s.append(reinterpret_cast<const char*>(&v), 4);
}
void log_put_u64(std::string& s, std::uint64_t v) {
  s.append(reinterpret_cast<const char*>(&v), 8);
}

template <typename T>
T log_get(const std::string& s, std::size_t at) {
  T v;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}

// The header: magic, record size, identity length, identity, and the checksum of all before it.
std::string log_header(const std::string& identity, std::size_t record_size) {
  std::string h(kLogMagic, kLogMagicSize);
  log_put_u32(h, static_cast<std::uint32_t>(record_size));
  log_put_u32(h, static_cast<std::uint32_t>(identity.size()));
  h += identity;
  log_put_u64(h, XXH3_64bits(h.data(), h.size()));
  return h;
}

// A record's checksum; the seed binds it to its place, so records swapped or repeated fail.
std::uint64_t record_checksum(const void* record, std::size_t size, std::uint64_t index) {
  return XXH3_64bits_withSeed(record, size, index);
}

[[noreturn]] void log_fail(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + ": " + why);
}

}  // namespace

RecordLog::RecordLog(const std::string& path, const std::string& identity, std::size_t record_size)
    : path_(path), record_size_(record_size), last_sync_(std::chrono::steady_clock::now()) {
  if (std::filesystem::exists(path))
    load(identity);
  else
    create(identity);
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0)
    log_fail(path, std::string("cannot open the log to append: ") + std::strerror(errno));
}

RecordLog::~RecordLog() {
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

// Created whole by a rename, so that no file under `path` ever holds half a header.
void RecordLog::create(const std::string& identity) {
  replace_text_durably(path_, log_header(identity, record_size_));
}

void RecordLog::load(const std::string& identity) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) log_fail(path_, "cannot read the log");
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (bytes.size() < kLogMagicSize + 8 || bytes.compare(0, kLogMagicSize, kLogMagic) != 0)
    log_fail(path_, "not a zermelo record log (remove it, or name another file)");
  const auto size = log_get<std::uint32_t>(bytes, kLogMagicSize);
  const auto id_len = log_get<std::uint32_t>(bytes, kLogMagicSize + 4);
  const std::size_t head = kLogMagicSize + 8 + id_len + 8;
  if (bytes.size() < head ||
      log_get<std::uint64_t>(bytes, head - 8) != XXH3_64bits(bytes.data(), head - 8))
    log_fail(path_, "the log's header is corrupt");
  const std::string found = bytes.substr(kLogMagicSize + 8, id_len);
  if (found != identity || size != record_size_)
    log_fail(path_, "the log belongs to another job: it is \"" + found + "\", this job is \"" +
                        identity + "\" (remove it, or name another file)");
  const std::size_t stride = record_size_ + 8;
  const std::size_t whole = (bytes.size() - head) / stride;
  for (std::uint64_t i = 0; i < whole; ++i) {
    const char* rec = bytes.data() + head + i * stride;
    if (log_get<std::uint64_t>(bytes, head + i * stride + record_size_) ==
        record_checksum(rec, record_size_, i)) {
      existing_.insert(existing_.end(), rec, rec + record_size_);
      continue;
    }
    if (i + 1 < whole) log_fail(path_, "record " + std::to_string(i) + " of the log is corrupt");
    break;  // a torn last record
  }
  count_ = existing_count();
  if (head + count_ * stride != bytes.size())  // cut what a torn write left after the last one
    std::filesystem::resize_file(path_, head + count_ * stride);
}

void RecordLog::append(const void* record) {
  std::string out(static_cast<const char*>(record), record_size_);
  std::lock_guard lock(mutex_);
  log_put_u64(out, record_checksum(record, record_size_, count_));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::write(fd_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      log_fail(path_, std::string("cannot append: ") + std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<std::size_t>(n);
  }
  ++count_;
  if (std::chrono::steady_clock::now() - last_sync_ >= sync_every) {
    ::fdatasync(fd_);
    last_sync_ = std::chrono::steady_clock::now();
  }
}

void RecordLog::remove() {
  std::lock_guard lock(mutex_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

}  // namespace zermelo
