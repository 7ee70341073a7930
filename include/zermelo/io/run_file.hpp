// Run files: the one on-disk format for everything big (positions, states, values, messages).
//
// A run is a sequence of fixed-size records, usually sorted by key, cut into blocks of about
// 1-4 MiB that are zstd-compressed and each carry an XXH3-64 checksum. The header names the record
// type, record size, sort key and record count and has a "complete" flag; the footer holds the
// index of blocks (offset, sizes, first record, first key, checksum) and the digest of all block
// checksums.
// A writer writes to "<path>.tmp" and renames it to <path> only after the footer and the complete
// flag are on disk, so a crash never leaves a file that looks finished. All I/O goes through
// io_uring with several requests in flight (see uring_file.hpp). The byte layout is in
// docs/run-format.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "zermelo/io/uring_file.hpp"

namespace zermelo {

// Any corruption or format problem: the message names the file, the block and what mismatched.
class RunFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::uint32_t record_size = 8;
  std::string record_type = "u64";  // free text, e.g. "ostle.state", checked by readers that care
  std::string sort_key = "none";    // free text, e.g. "key asc"
  int zstd_level = 1;               // 0 = store blocks uncompressed
  std::uint32_t block_bytes = 2u << 20;  // uncompressed bytes per block (rounded to whole records)
  bool delta_u64_keys = false;  // transform: records whose first 8 bytes are sorted u64 keys
  bool shuffle_bytes = false;   // transform: byte planes before zstd (compressed runs only)
  // Writer only (not stored): fsync the file and its directory when finished. False only for
  // scratch runs, never a result and never read by a resume (IoOptions::durable).
  bool durable = true;
};

struct BlockInfo {
  std::uint64_t offset = 0;        // of the compressed payload in the file
  std::uint32_t stored_bytes = 0;  // compressed size on disk
  std::uint32_t raw_bytes = 0;     // uncompressed size
  std::uint64_t first_record = 0;  // index of the block's first record
  std::uint64_t checksum = 0;      // XXH3-64 of the stored (compressed) bytes
  std::uint64_t first_key = 0;     // the first record's first 8 bytes, as a u64 (format 2; else 0)
};

struct RunInfo {
  std::string path;
  std::uint32_t format_version = 0;
  RunOptions options;
  std::uint64_t record_count = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t digest = 0;  // XXH3-64 over all block checksums, in order
  std::vector<BlockInfo> blocks;
  std::string digest_hex() const;
  // Format 2, records in ascending key order: how many blocks start at or below `key`; the last of
  // them is the only block that can hold it. Blocks before `from` are taken to start below it.
  std::size_t blocks_starting_at_or_below(std::uint64_t key, std::size_t from = 0) const;
};

// Whether `from`'s stored blocks can be taken unchanged by a run written with `to` (the same
// record size and transforms): the test behind RunWriter::can_take_blocks_of, for a process that
// sends its blocks to another's writer (the BFS's gather across MPI ranks).
bool blocks_fit(const RunOptions& to, const RunInfo& from);

class RunWriter {
 public:
  RunWriter(std::string path, RunOptions options);
  ~RunWriter();  // an unfinished writer deletes its temporary file
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  void append(const void* record) { append_many(record, 1); }
  void append_many(const void* records, std::size_t count);
  template <class T>
  void push(const T& r) {
    append(&r);
  }

  std::uint64_t records() const;
  // Memory this writer holds (block buffers and I/O buffers), for budget accounting.
  static std::size_t memory_bytes(const RunOptions& options);
  // Whole blocks: true if this writer can take `from`'s stored blocks unchanged (same record
  // size and transforms), and taking one (it ends any partly filled block first). Passes use this
  // to copy the blocks they would not change without decompressing and recompressing them.
  bool can_take_blocks_of(const RunInfo& from) const;
  void append_stored_block(const BlockInfo& block, const std::vector<std::byte>& stored);
  // Records in the partly filled block, and records a full block holds: a caller that copies
  // blocks can wait for half a block, so that no block but the last is under half full.
  std::size_t pending_records() const;
  std::size_t block_records() const;

  // Flushes, writes the footer, sets the complete flag, fsyncs (if durable), renames. Returns
  // the summary.
  RunInfo finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class RunReader {
 public:
  // Checks header, footer and the complete flag. `io` sets the read-ahead (merges of many runs
  // use smaller buffers to stay inside the memory budget). With `decode_ahead` a worker thread
  // reads, checks and decodes the next block while the caller works on this one: for the one big
  // sequential input of a pass whose own work would otherwise wait for zstd and byte planes.
  explicit RunReader(const std::string& path, IoOptions io = {}, bool decode_ahead = false);
  ~RunReader();
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;

  const RunInfo& info() const;
  std::uint64_t size() const { return info().record_count; }
  std::uint32_t record_size() const { return info().options.record_size; }

  // Sequential: the next record, or false at the end. Every block's checksum is verified.
  bool next(void* record);
  template <class T>
  bool next(T& r) {
    return next(static_cast<void*>(&r));
  }
  // The next run of up to `max` records straight from the current block (no copy).
  // Returns the count; 0 at the end.
  std::size_t next_span(const void** records, std::size_t max);

  // Whole blocks, for passes that copy untouched blocks (see RunWriter::append_stored_block):
  // whether every record of the current block has been handed out, the index of the block the
  // next read enters (blocks().size() at the end), and taking that block as stored bytes.
  bool at_block_end() const;
  std::size_t next_block_index() const;
  void read_stored_block(std::vector<std::byte>& stored);
  // A hint for a reader that decodes ahead, from a pass that copies the blocks its input does not
  // reach: the blocks whose keys are all below `key` (every block: none) will most likely be
  // taken as stored bytes, so its worker reads and checks them without decoding them (a copying
  // pass over a large run would otherwise spend most of its time decompressing blocks it copies).
  // A block read by records after all is decoded then, on the caller's thread. Needs the blocks'
  // first keys (format 2).
  void will_copy_blocks_below(std::optional<std::uint64_t> key);

  // Starts the sequential reading at record `record` (before any record was read): the blocks
  // before it are not read at all. Used to resume a pass part-way through its input.
  void skip_to(std::uint64_t record);

  // Random access for queries: decompress only block b (checksum verified).
  std::vector<std::byte> read_block(std::size_t b);

  // Memory a reader holds while streaming runs with these block and I/O sizes.
  static std::size_t memory_bytes(std::uint32_t block_bytes, const IoOptions& io,
                                  bool decode_ahead = false);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads every block, checks every checksum and the digest. Throws RunFileError on any mismatch.
RunInfo verify_run(const std::string& path);
// Reads only header and footer (cheap): what `zermelo info` prints.
RunInfo inspect_run(const std::string& path);

}  // namespace zermelo
