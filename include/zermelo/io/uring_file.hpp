// Sequential file streams over io_uring: the only way Zermelo moves bulk bytes to and from disk.
//
// A writer appends to a byte stream; full chunks are submitted as asynchronous writes with several
// in flight, from page-aligned buffers registered with the ring (write_fixed), with O_DIRECT where
// the file system allows it and buffered I/O where it refuses (tmpfs, some overlay mounts). A
// reader streams a byte range with a fixed number of read-ahead requests in flight. Short transfers
// are re-queued; every error names the file and the errno text (ENOSPC, EFBIG, EIO...). A request
// that waits too long is cancelled and issued again (IoOptions::retry_seconds), and one that never
// completes is an error too (IoOptions::stall_seconds). Header rewrites and random block reads use
// the positional helpers below.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace zermelo {

struct IoOptions {
  std::size_t chunk_bytes = 1u << 20;  // bytes per request (a multiple of 4096)
  unsigned queue_depth = 4;            // requests in flight
  bool direct = true;                  // try O_DIRECT first
  // A request with no completion for this long is cancelled and issued again (then after twice as
  // long, and so on, should the device merely be slow): requests have been seen to sit in the
  // kernel with the disk idle until cancelled (docs/run-format.md, "Writing protocol"). A cancelled
  // request that was in fact on its way costs one more transfer of the same bytes to the same
  // offset.
  unsigned retry_seconds = 5;
  // With no completion at all for this long, the device or kernel is stalled (seen once on a
  // virtual disk: four writes that never completed): fail with an error naming the file rather
  // than hang a solve for ever; the job resumes from its last step.
  unsigned stall_seconds = 600;
  // Writers: finish() fsyncs. Off only for scratch files that are never a result and that no
  // resume reads (a crash redoes the operation that wrote them), where the syncs are pure cost.
  bool durable = true;
};

class SequentialWriter {
 public:
  SequentialWriter(const std::string& path, IoOptions options = {});  // creates or truncates
  ~SequentialWriter();
  SequentialWriter(const SequentialWriter&) = delete;
  SequentialWriter& operator=(const SequentialWriter&) = delete;

  void write(const void* data, std::size_t n);
  std::uint64_t position() const;  // logical bytes written so far
  bool is_direct() const;
  // Overwrites `n` bytes at `offset` (both multiples of 4096, inside what is already flushed):
  // used to rewrite a header once the body is on disk.
  void overwrite(std::uint64_t offset, const void* data, std::size_t n);
  // Flushes everything, trims the padding of the last chunk, fsyncs (if durable). Throws on any
  // I/O error. Called again after an overwrite, it syncs that too.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class SequentialReader {
 public:
  // Streams bytes [begin, end) of the file; end = UINT64_MAX means to the end of the file.
  SequentialReader(const std::string& path, std::uint64_t begin = 0, std::uint64_t end = UINT64_MAX,
                   IoOptions options = {});
  ~SequentialReader();
  SequentialReader(const SequentialReader&) = delete;
  SequentialReader& operator=(const SequentialReader&) = delete;

  // Copies up to n bytes; returns fewer only at the end of the range.
  std::size_t read(void* dst, std::size_t n);
  std::uint64_t position() const;  // absolute file offset of the next byte
  bool is_direct() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::uint64_t file_size(const std::string& path);  // throws naming the file
// Reads exactly n bytes at offset (any alignment); throws naming the file on a short read.
std::vector<std::byte> read_at(const std::string& path, std::uint64_t offset, std::size_t n);
// How many io_uring rings this process has set up: files share idle rings (a pool), so a pass
// over many small files sets up few. For tests and benchmarks.
std::uint64_t rings_set_up();
// How many times this process cancelled and issued again requests that had no completion for
// IoOptions::retry_seconds (each also a line on stderr). For tests.
std::uint64_t io_retries();
// fsync of a directory, so that a rename in it is durable.
void sync_directory_of(const std::string& path);

}  // namespace zermelo
