// Run files: see include/zermelo/io/run_file.hpp and docs/run-format.md for the layout.
#include "zermelo/io/run_file.hpp"

#include <xxhash.h>
#include <zstd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace {

constexpr char kMagic[8] = {'Z', 'R', 'M', 'L', 'R', 'U', 'N', '\n'};
constexpr char kFooterMagic[8] = {'Z', 'R', 'M', 'L', 'F', 'O', 'O', 'T'};
// Version 2 added each block's first key to the index; version 1 files are still read.
constexpr std::uint32_t kVersion = 2;
constexpr std::uint32_t kOldestVersion = 1;
constexpr std::size_t kHeaderBytes = 4096;
constexpr std::size_t kHeaderChecksumAt = kHeaderBytes - 8;
constexpr std::size_t entry_bytes(std::uint32_t version) { return version >= 2 ? 40 : 32; }
constexpr std::uint32_t kFlagComplete = 1, kFlagDelta = 2, kFlagShuffle = 4;
constexpr std::size_t kTextField = 64;

template <class T>
void put(std::byte* p, std::size_t at, T v) {
  std::memcpy(p + at, &v, sizeof v);
}
template <class T>
T get(const std::byte* p, std::size_t at) {
  T v;
  std::memcpy(&v, p + at, sizeof v);
  return v;
}
void put_text(std::byte* p, std::size_t at, const std::string& s, const std::string& what) {
  if (s.size() >= kTextField)
    throw std::invalid_argument(what + " longer than 63 characters: " + s);
  std::memcpy(p + at, s.data(), s.size());
}
std::string get_text(const std::byte* p, std::size_t at) {
  const char* c = reinterpret_cast<const char*>(p + at);
  return std::string(c, strnlen(c, kTextField - 1));
}
std::string hex(std::uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

std::uint64_t block_checksum(const void* data, std::size_t n, std::uint64_t index) {
  return XXH3_64bits_withSeed(data, n, index);  // the seed binds a block to its place
}

std::uint64_t digest_of(const std::vector<BlockInfo>& blocks) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  for (auto& b : blocks) XXH3_64bits_update(st, &b.checksum, sizeof b.checksum);
  std::uint64_t d = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return d;
}

// Sorted u64 keys in the first 8 bytes of each record become differences (small numbers that
// compress well); applied per block so every block decodes on its own.
void delta_encode(std::byte* p, std::size_t n, std::uint32_t rs) {
  std::uint64_t prev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t k = get<std::uint64_t>(p, i * rs);
    put<std::uint64_t>(p, i * rs, k - prev);
    prev = k;
  }
}
void delta_decode(std::byte* p, std::size_t n, std::uint32_t rs) {
  std::uint64_t prev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    prev += get<std::uint64_t>(p, i * rs);
    put<std::uint64_t>(p, i * rs, prev);
  }
}

// Byte planes: byte j of every record stored together (record i's byte j at j * n + i). The fields
// of these records are small integers (key differences, counts, values) whose high bytes are
// nearly all zero: as planes they are long runs that zstd compresses several times smaller and
// faster than interleaved records (bench/RESULTS.md).
//
// The bulk is transposed in registers, since a byte-by-byte strided copy cost more than zstd: with
// SSE2, sixteen records by sixteen (or eight) bytes at a time, eight-byte records by a faster
// path of their own; elsewhere eight by eight. The transposes are their own inverse, so both
// directions share them. Byte by byte for the rest.
#if defined(__SSE2__)
// Sixteen rows of sixteen bytes to their transpose: four perfect shuffles of the rows (row k
// interleaved with row k + 8) move byte (r, c) to (c, r).
void transpose16x16(__m128i r[16]) {
  for (int round = 0; round < 4; ++round) {
    __m128i t[16];
    for (int k = 0; k < 8; ++k) {
      t[2 * k] = _mm_unpacklo_epi8(r[k], r[k + 8]);
      t[2 * k + 1] = _mm_unpackhi_epi8(r[k], r[k + 8]);
    }
    for (int k = 0; k < 16; ++k) r[k] = t[k];
  }
}

// Eight rows of eight 16-bit elements to their transpose (its own inverse): three rounds of
// interleaving 16-, 32- and 64-bit elements.
void transpose8x8_epi16(__m128i r[8]) {
  __m128i t[8], u[8];
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 2; ++k)
    for (int h = 0; h < 2; ++h) {
      u[4 * k + 2 * h] = _mm_unpacklo_epi32(t[4 * k + h], t[4 * k + h + 2]);
      u[4 * k + 2 * h + 1] = _mm_unpackhi_epi32(t[4 * k + h], t[4 * k + h + 2]);
    }
  for (int k = 0; k < 4; ++k) {
    r[2 * k] = _mm_unpacklo_epi64(u[k], u[k + 4]);
    r[2 * k + 1] = _mm_unpackhi_epi64(u[k], u[k + 4]);
  }
}

// Eight-byte records (every key run), sixteen at a time in eight registers: each register's two
// records are interleaved byte by byte, which makes them eight 16-bit elements (one a plane), and
// an 8x8 transpose of those puts each plane's sixteen bytes in one register. A third of the
// shuffles of the 16x16 transpose, which for eight-byte records transposes eight rows of zeros.
std::size_t transpose_records8(const std::byte* in, std::byte* out, std::size_t n, bool to_planes) {
  const std::size_t records = n / 16 * 16;
  auto ptr = [](const std::byte* p) { return reinterpret_cast<const __m128i*>(p); };
  auto mut = [](std::byte* p) { return reinterpret_cast<__m128i*>(p); };
  const __m128i low_bytes = _mm_set1_epi16(0x00FF);
  __m128i r[8];
  for (std::size_t i0 = 0; i0 < records; i0 += 16) {
    if (to_planes) {
      for (int k = 0; k < 8; ++k) {
        const __m128i two = _mm_loadu_si128(ptr(in + (i0 + 2 * static_cast<std::size_t>(k)) * 8));
        r[k] = _mm_unpacklo_epi8(two, _mm_srli_si128(two, 8));  // A0 B0 A1 B1 ... A7 B7
      }
      transpose8x8_epi16(r);
      for (int j = 0; j < 8; ++j)
        _mm_storeu_si128(mut(out + static_cast<std::size_t>(j) * n + i0), r[j]);
    } else {
      for (int j = 0; j < 8; ++j)
        r[j] = _mm_loadu_si128(ptr(in + static_cast<std::size_t>(j) * n + i0));
      transpose8x8_epi16(r);
      for (int k = 0; k < 8; ++k) {  // A0 B0 A1 B1 ... back to A0..A7 B0..B7
        const __m128i two =
            _mm_packus_epi16(_mm_and_si128(r[k], low_bytes), _mm_srli_epi16(r[k], 8));
        _mm_storeu_si128(mut(out + (i0 + 2 * static_cast<std::size_t>(k)) * 8), two);
      }
    }
  }
  return records;
}

// Columns [0, rs rounded down to 8) of records [0, n rounded down to 16); returns that many
// records.
std::size_t transpose_bulk(const std::byte* in, std::byte* out, std::size_t n, std::uint32_t rs,
                           bool to_planes) {
  if (rs == 8) return transpose_records8(in, out, n, to_planes);
  const std::size_t records = n / 16 * 16;
  auto ptr = [](const std::byte* p) { return reinterpret_cast<const __m128i*>(p); };
  auto mut = [](std::byte* p) { return reinterpret_cast<__m128i*>(p); };
  __m128i r[16];
  for (std::uint32_t c = 0; c + 8 <= rs; c += 16) {
    const int width = c + 16 <= rs ? 16 : 8;  // bytes of this column: planes c .. c + width
    for (std::size_t i0 = 0; i0 < records; i0 += 16) {
      if (to_planes) {
        for (int k = 0; k < 16; ++k) {
          const std::byte* row = in + (i0 + static_cast<std::size_t>(k)) * rs + c;
          r[k] = width == 16 ? _mm_loadu_si128(ptr(row)) : _mm_loadl_epi64(ptr(row));
        }
        transpose16x16(r);
        for (int k = 0; k < width; ++k)
          _mm_storeu_si128(mut(out + (c + static_cast<std::size_t>(k)) * n + i0), r[k]);
      } else {
        for (int k = 0; k < 16; ++k)
          r[k] = k < width ? _mm_loadu_si128(ptr(in + (c + static_cast<std::size_t>(k)) * n + i0))
                           : _mm_setzero_si128();
        transpose16x16(r);
        for (int k = 0; k < 16; ++k) {
          std::byte* row = out + (i0 + static_cast<std::size_t>(k)) * rs + c;
          if (width == 16)
            _mm_storeu_si128(mut(row), r[k]);
          else
            _mm_storel_epi64(mut(row), r[k]);
        }
      }
    }
  }
  return records;
}
#else
// Eight rows of eight bytes to their transpose: three rounds of swapping 4-, 2- and 1-byte blocks.
void transpose8x8(std::uint64_t r[8]) {
  constexpr std::uint64_t kMask[3] = {0x00000000FFFFFFFFull, 0x0000FFFF0000FFFFull,
                                      0x00FF00FF00FF00FFull};
  int round = 0;
  for (int s = 4; s >= 1; s /= 2, ++round)
    for (int i = 0; i < 8; ++i)
      if ((i & s) == 0) {
        const std::uint64_t t = ((r[i] >> (8 * s)) ^ r[i + s]) & kMask[round];
        r[i + s] ^= t;
        r[i] ^= t << (8 * s);
      }
}

std::size_t transpose_bulk(const std::byte* in, std::byte* out, std::size_t n, std::uint32_t rs,
                           bool to_planes) {
  const std::size_t records = n / 8 * 8;
  std::uint64_t r[8];
  for (std::uint32_t c = 0; c + 8 <= rs; c += 8)
    for (std::size_t i0 = 0; i0 < records; i0 += 8) {
      for (int k = 0; k < 8; ++k)
        std::memcpy(&r[k], to_planes ? in + (i0 + k) * rs + c : in + (c + k) * n + i0, 8);
      transpose8x8(r);
      for (int k = 0; k < 8; ++k)
        std::memcpy(to_planes ? out + (c + k) * n + i0 : out + (i0 + k) * rs + c, &r[k], 8);
    }
  return records;
}
#endif

// planes[j * n + i] <-> records[i * rs + j] (to_planes chooses the direction).
void transpose_block(const std::byte* in, std::byte* out, std::size_t n, std::uint32_t rs,
                     bool to_planes) {
  const std::size_t done = transpose_bulk(in, out, n, rs, to_planes);
  auto copy = [&](std::size_t i, std::uint32_t j) {
    if (to_planes)
      out[j * n + i] = in[i * rs + j];
    else
      out[i * rs + j] = in[j * n + i];
  };
  for (std::uint32_t j = rs / 8 * 8; j < rs; ++j)  // the columns left over, byte by byte
    for (std::size_t i = 0; i < n; ++i) copy(i, j);
  for (std::uint32_t j = 0; j < rs / 8 * 8; ++j)  // the records left over
    for (std::size_t i = done; i < n; ++i) copy(i, j);
}
void shuffle_bytes(const std::byte* in, std::byte* out, std::size_t n, std::uint32_t rs) {
  transpose_block(in, out, n, rs, true);
}
void unshuffle_bytes(const std::byte* in, std::byte* out, std::size_t n, std::uint32_t rs) {
  transpose_block(in, out, n, rs, false);
}

void encode_header(std::byte* h, const RunInfo& info, bool complete, std::uint64_t footer_offset,
                   std::uint64_t footer_bytes) {
  std::memset(h, 0, kHeaderBytes);
  const RunOptions& o = info.options;
  std::memcpy(h, kMagic, 8);
  put<std::uint32_t>(h, 8, kVersion);
  put<std::uint32_t>(h, 12, static_cast<std::uint32_t>(kHeaderBytes));
  put<std::uint32_t>(h, 16, o.record_size);
  put<std::uint32_t>(h, 20,
                     (complete ? kFlagComplete : 0) | (o.delta_u64_keys ? kFlagDelta : 0) |
                         (o.shuffle_bytes ? kFlagShuffle : 0));
  put<std::uint64_t>(h, 24, info.record_count);
  put<std::uint64_t>(h, 32, footer_offset);
  put<std::uint64_t>(h, 40, footer_bytes);
  put<std::uint32_t>(h, 48, o.block_bytes);
  put<std::int32_t>(h, 52, o.zstd_level);
  put_text(h, 56, o.record_type, "record type");
  put_text(h, 120, o.sort_key, "sort key");
  put<std::uint64_t>(h, 184, info.digest);
  put<std::uint64_t>(h, kHeaderChecksumAt, XXH3_64bits(h, kHeaderChecksumAt));
}

}  // namespace

std::string RunInfo::digest_hex() const { return hex(digest); }

std::size_t RunInfo::blocks_starting_at_or_below(std::uint64_t key, std::size_t from) const {
  const auto start = blocks.begin() + static_cast<std::ptrdiff_t>(std::min(from, blocks.size()));
  return static_cast<std::size_t>(
      std::upper_bound(start, blocks.end(), key,
                       [](std::uint64_t k, const BlockInfo& b) { return k < b.first_key; }) -
      blocks.begin());
}

// ---------------------------------------------------------------- inspect

RunInfo inspect_run(const std::string& path) {
  RunInfo info;
  info.path = path;
  info.file_bytes = file_size(path);
  if (info.file_bytes < kHeaderBytes)
    throw RunFileError(path + ": truncated: " + std::to_string(info.file_bytes) +
                       " bytes, shorter than the 4096-byte header");
  auto hv = read_at(path, 0, kHeaderBytes);
  const std::byte* h = hv.data();
  if (std::memcmp(h, kMagic, 8) != 0)
    throw RunFileError(path + ": not a Zermelo run file (wrong magic)");
  info.format_version = get<std::uint32_t>(h, 8);
  if (info.format_version < kOldestVersion || info.format_version > kVersion)
    throw RunFileError(path + ": unsupported format version " +
                       std::to_string(info.format_version) + " (this build reads versions " +
                       std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  std::uint64_t want = get<std::uint64_t>(h, kHeaderChecksumAt),
                got = XXH3_64bits(h, kHeaderChecksumAt);
  if (want != got)
    throw RunFileError(path + ": header checksum mismatch (stored " + hex(want) + ", computed " +
                       hex(got) + ")");
  std::uint32_t flags = get<std::uint32_t>(h, 20);
  if (!(flags & kFlagComplete))
    throw RunFileError(
        path + ": incomplete run file (the 'complete' flag is unset: its writer never finished)");
  RunOptions& o = info.options;
  o.record_size = get<std::uint32_t>(h, 16);
  o.delta_u64_keys = flags & kFlagDelta;
  o.shuffle_bytes = flags & kFlagShuffle;
  o.block_bytes = get<std::uint32_t>(h, 48);
  o.zstd_level = get<std::int32_t>(h, 52);
  o.record_type = get_text(h, 56);
  o.sort_key = get_text(h, 120);
  info.record_count = get<std::uint64_t>(h, 24);
  info.digest = get<std::uint64_t>(h, 184);
  std::uint64_t footer_offset = get<std::uint64_t>(h, 32), footer_bytes = get<std::uint64_t>(h, 40);
  if (o.record_size == 0) throw RunFileError(path + ": record size 0 in header");
  if (footer_offset + footer_bytes != info.file_bytes)
    throw RunFileError(path + ": truncated or padded: header says " +
                       std::to_string(footer_offset + footer_bytes) + " bytes, file has " +
                       std::to_string(info.file_bytes));
  if (footer_bytes < 32) throw RunFileError(path + ": footer too short");
  auto fv = read_at(path, footer_offset, footer_bytes);
  const std::byte* f = fv.data();
  if (std::memcmp(f, kFooterMagic, 8) != 0) throw RunFileError(path + ": footer magic mismatch");
  std::uint64_t fwant = get<std::uint64_t>(f, footer_bytes - 8),
                fgot = XXH3_64bits(f, footer_bytes - 8);
  if (fwant != fgot)
    throw RunFileError(path + ": footer checksum mismatch (stored " + hex(fwant) + ", computed " +
                       hex(fgot) + ")");
  std::uint64_t n = get<std::uint64_t>(f, 8);
  const std::size_t entry = entry_bytes(info.format_version);
  if (footer_bytes != 32 + n * entry)
    throw RunFileError(path + ": footer size does not match its block count");
  std::uint64_t expect_offset = kHeaderBytes, expect_first = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::byte* e = f + 16 + i * entry;
    BlockInfo b{get<std::uint64_t>(e, 0),  get<std::uint32_t>(e, 8),
                get<std::uint32_t>(e, 12), get<std::uint64_t>(e, 16),
                get<std::uint64_t>(e, 24), entry >= 40 ? get<std::uint64_t>(e, 32) : 0};
    if (b.offset != expect_offset || b.first_record != expect_first || b.raw_bytes % o.record_size)
      throw RunFileError(path + ": block " + std::to_string(i) + ": index entry inconsistent");
    expect_offset += b.stored_bytes;
    expect_first += b.raw_bytes / o.record_size;
    info.blocks.push_back(b);
  }
  if (expect_offset != footer_offset || expect_first != info.record_count)
    throw RunFileError(path +
                       ": block index does not add up to the footer offset and record count");
  std::uint64_t footer_digest = get<std::uint64_t>(f, footer_bytes - 16);
  if (footer_digest != info.digest) throw RunFileError(path + ": header and footer digests differ");
  if (digest_of(info.blocks) != info.digest)
    throw RunFileError(path + ": digest does not match the block checksums");
  return info;
}

// ---------------------------------------------------------------- writer

// A block buffer left uninitialised: the writer fills [0, fill) before it reads a byte, and
// zeroing a writer's four 2 MiB buffers cost a small run more than its content (page faults,
// about 2,000 a writer; under AddressSanitizer every such buffer is a fresh mapping).
class BlockBuffer {
 public:
  explicit BlockBuffer(std::size_t n = 0)
      : bytes_(n ? std::make_unique_for_overwrite<std::byte[]>(n) : nullptr), size_(n) {}
  std::byte* data() { return bytes_.get(); }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t size_ = 0;
};

// A compressing writer hands each full block to a worker thread and fills the next one meanwhile:
// zstd is most of a pass's CPU when working runs are compressed, and the merge loop feeding the
// writer is single-threaded, so the second core would otherwise idle. One block is in flight at a
// time and the worker writes blocks in order, so the file is byte-identical to a serial write.
struct RunWriter::Impl {
  std::string path, tmp_path;
  RunInfo info;                     // blocks and record_count: owned by the worker while it runs
  std::uint32_t block_cap = 0;      // raw bytes per block, whole records
  BlockBuffer raw, packed, planes;  // planes: the shuffled block, when shuffling
  std::size_t raw_fill = 0;
  std::uint64_t flushed_records = 0;  // records handed to flush_block (the caller's count)
  ZSTD_CCtx* cctx = nullptr;
  unsigned incompressible_run = 0;  // consecutive blocks that zstd did not shrink
  std::unique_ptr<SequentialWriter> out;
  bool finished = false;

  // The background block (compressing writers only).
  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  BlockBuffer busy;  // the block the worker is storing
  std::size_t busy_fill = 0;
  bool has_work = false, stop = false;
  std::exception_ptr error;

  Impl(std::string p, RunOptions o) : path(std::move(p)), tmp_path(path + ".tmp") {
    if (o.record_size == 0) throw std::invalid_argument(path + ": record size must be positive");
    if (o.delta_u64_keys && o.record_size < 8)
      throw std::invalid_argument(path + ": delta keys need records of 8+ bytes");
    info.path = path;
    info.format_version = kVersion;
    info.options = o;
    if (o.zstd_level == 0) info.options.shuffle_bytes = false;  // only worth it before zstd
    block_cap = std::max<std::uint32_t>(1, o.block_bytes / o.record_size) * o.record_size;
    raw = BlockBuffer(block_cap);
    packed = BlockBuffer(ZSTD_compressBound(block_cap));
    if (info.options.shuffle_bytes) planes = BlockBuffer(block_cap);
    cctx = ZSTD_createCCtx();
    std::filesystem::remove(path);  // an old result must not survive a new, unfinished write
    IoOptions io;
    io.durable = o.durable;
    out = std::make_unique<SequentialWriter>(tmp_path, io);
    std::vector<std::byte> h(kHeaderBytes);
    encode_header(h.data(), info, false, 0, 0);
    out->write(h.data(), h.size());
  }
  ~Impl() {
    stop_worker();
    ZSTD_freeCCtx(cctx);
    if (!finished) {
      out.reset();
      std::error_code ec;
      std::filesystem::remove(tmp_path, ec);
    }
  }

  // The caller's side: a full (or final) block is stored in the background when compressing.
  void flush_block() {
    if (raw_fill == 0) return;
    flushed_records += raw_fill / info.options.record_size;
    if (info.options.zstd_level == 0) {
      store_block(raw, raw_fill);
      raw_fill = 0;
      return;
    }
    if (!worker.joinable()) {
      busy = BlockBuffer(block_cap);
      worker = std::thread([this] { work(); });
    }
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !has_work; });
    if (error) std::rethrow_exception(error);
    std::swap(raw, busy);
    busy_fill = raw_fill, raw_fill = 0;
    has_work = true;
    cv.notify_all();
  }

  // Waits until the worker has stored every block handed to it; rethrows its error.
  void drain() {
    if (!worker.joinable()) return;
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !has_work; });
    if (error) std::rethrow_exception(error);
  }

  void stop_worker() {
    if (!worker.joinable()) return;
    {
      std::lock_guard lock(mu);
      stop = true;
    }
    cv.notify_all();
    worker.join();
  }

  void work() {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return has_work || stop; });
      if (!has_work) return;
      lock.unlock();
      std::exception_ptr failed;
      try {
        store_block(busy, busy_fill);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      error = failed;
      has_work = false;
      cv.notify_all();
      if (failed) return;
    }
  }

  // Delta-codes, compresses, checksums and appends one block (the worker's side when compressing).
  void store_block(BlockBuffer& block, std::size_t fill) {
    const RunOptions& o = info.options;
    std::uint64_t first_key = 0;
    if (o.record_size >= 8) std::memcpy(&first_key, block.data(), 8);
    if (o.delta_u64_keys) delta_encode(block.data(), fill / o.record_size, o.record_size);
    const std::byte* data = block.data();
    if (o.shuffle_bytes)
      shuffle_bytes(data, planes.data(), fill / o.record_size, o.record_size), data = planes.data();
    const std::byte* stored = data;
    std::size_t stored_n = fill;
    // Incompressible data (random keys) would spend a core on zstd for nothing: after a few
    // blocks that did not shrink, only every 16th block is tried. The rule depends on the data
    // alone, so the same input still gives the same file.
    bool try_zstd = o.zstd_level != 0 && (incompressible_run < 4 || info.blocks.size() % 16 == 0);
    if (try_zstd) {
      std::size_t c =
          ZSTD_compressCCtx(cctx, packed.data(), packed.size(), data, fill, o.zstd_level);
      if (ZSTD_isError(c)) throw RunFileError(path + ": zstd: " + ZSTD_getErrorName(c));
      if (c < fill - fill / 32)
        stored = packed.data(), stored_n = c;  // else stored raw: stored == raw marks that
      incompressible_run = stored_n == fill ? incompressible_run + 1 : 0;
    }
    BlockInfo b;
    b.offset = out->position();
    b.stored_bytes = static_cast<std::uint32_t>(stored_n);
    b.raw_bytes = static_cast<std::uint32_t>(fill);
    b.first_record = info.record_count;
    b.checksum = block_checksum(stored, stored_n, info.blocks.size());
    b.first_key = first_key;
    out->write(stored, stored_n);
    info.record_count += fill / o.record_size;
    info.blocks.push_back(b);
  }
};

RunWriter::RunWriter(std::string path, RunOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), std::move(options))) {}
RunWriter::~RunWriter() = default;

void RunWriter::append_many(const void* records, std::size_t count) {
  auto& I = *impl_;
  const auto* src = static_cast<const std::byte*>(records);
  std::size_t bytes = count * I.info.options.record_size;
  while (bytes > 0) {
    std::size_t take = std::min<std::size_t>(bytes, I.block_cap - I.raw_fill);
    std::memcpy(I.raw.data() + I.raw_fill, src, take);
    I.raw_fill += take, src += take, bytes -= take;
    if (I.raw_fill == I.block_cap) I.flush_block();
  }
}

std::uint64_t RunWriter::records() const {
  return impl_->flushed_records + impl_->raw_fill / impl_->info.options.record_size;
}

std::size_t RunWriter::pending_records() const {
  return impl_->raw_fill / impl_->info.options.record_size;
}
std::size_t RunWriter::block_records() const {
  return impl_->block_cap / impl_->info.options.record_size;
}

bool blocks_fit(const RunOptions& to, const RunInfo& from) {
  const RunOptions& b = from.options;
  return from.format_version >= 2 && to.record_size == b.record_size &&
         to.delta_u64_keys == b.delta_u64_keys && to.shuffle_bytes == b.shuffle_bytes;
}

bool RunWriter::can_take_blocks_of(const RunInfo& from) const {
  return blocks_fit(impl_->info.options, from);
}

void RunWriter::append_stored_block(const BlockInfo& block, const std::vector<std::byte>& stored) {
  auto& I = *impl_;
  if (stored.size() != block.stored_bytes || block.raw_bytes % I.info.options.record_size != 0)
    throw std::logic_error(I.path + ": a stored block of the wrong size");
  I.flush_block();
  I.drain();  // the worker's blocks first, in order
  BlockInfo b = block;
  b.offset = I.out->position();
  b.first_record = I.info.record_count;
  b.checksum = block_checksum(stored.data(), stored.size(),
                              I.info.blocks.size());  // seeded by its new place
  I.out->write(stored.data(), stored.size());
  I.info.record_count += block.raw_bytes / I.info.options.record_size;
  I.flushed_records += block.raw_bytes / I.info.options.record_size;
  I.info.blocks.push_back(b);
}

RunInfo RunWriter::finish() {
  auto& I = *impl_;
  if (I.finished) throw std::logic_error(I.path + ": finish called twice");
  I.flush_block();
  I.drain();
  I.stop_worker();
  I.info.digest = digest_of(I.info.blocks);
  std::uint64_t footer_offset = I.out->position();
  const std::size_t entry = entry_bytes(kVersion);
  std::vector<std::byte> f(32 + I.info.blocks.size() * entry);
  std::memcpy(f.data(), kFooterMagic, 8);
  put<std::uint64_t>(f.data(), 8, I.info.blocks.size());
  for (std::size_t i = 0; i < I.info.blocks.size(); ++i) {
    std::byte* e = f.data() + 16 + i * entry;
    const BlockInfo& b = I.info.blocks[i];
    put(e, 0, b.offset), put(e, 8, b.stored_bytes), put(e, 12, b.raw_bytes),
        put(e, 16, b.first_record), put(e, 24, b.checksum);
    put(e, 32, b.first_key);
  }
  put<std::uint64_t>(f.data(), f.size() - 16, I.info.digest);
  put<std::uint64_t>(f.data(), f.size() - 8, XXH3_64bits(f.data(), f.size() - 8));
  I.out->write(f.data(), f.size());
  I.out->finish();  // body and footer durable before the header says "complete"
  std::vector<std::byte> h(kHeaderBytes);
  encode_header(h.data(), I.info, true, footer_offset, f.size());
  I.out->overwrite(0, h.data(), h.size());
  I.out->finish();
  I.out.reset();
  I.info.file_bytes = footer_offset + f.size();
  std::filesystem::rename(I.tmp_path, I.path);
  if (I.info.options.durable) sync_directory_of(I.path);
  I.finished = true;
  return I.info;
}

// ---------------------------------------------------------------- reader

struct RunReader::Impl {
  RunInfo info;
  IoOptions io;
  std::unique_ptr<SequentialReader> in;
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  std::vector<std::byte> stored, raw, planes;
  std::size_t next_block = 0;
  std::size_t raw_records = 0, raw_pos = 0;  // records in `raw`, next one to hand out

  // Decode-ahead: a worker reads and decodes the block after the one being handed out, and keeps
  // its stored bytes too (for read_stored_block). One block in its hands at a time.
  bool ahead = false;
  struct Slot {
    std::vector<std::byte> stored, raw, planes;
    std::size_t block = 0;
    bool full = false, decoded = false;
    std::exception_ptr error;
  } slot;
  std::atomic<std::size_t> copy_before{
      0};  // will_copy_blocks_before: the worker leaves these undecoded
  ZSTD_DCtx* ahead_dctx = nullptr;
  std::thread worker;
  std::mutex m;
  std::condition_variable cv;
  std::size_t fetch = 0;  // the next block the worker reads
  bool stop = false;

  ~Impl() {
    if (worker.joinable()) {
      {
        std::lock_guard lk(m);
        stop = true;
      }
      cv.notify_all();
      worker.join();
    }
    ZSTD_freeDCtx(dctx);
    if (ahead_dctx) ZSTD_freeDCtx(ahead_dctx);
  }

  void verify(std::size_t b, const std::vector<std::byte>& payload) const {
    const BlockInfo& bi = info.blocks[b];
    std::uint64_t got = block_checksum(payload.data(), bi.stored_bytes, b);
    if (got != bi.checksum)
      throw RunFileError(info.path + ": block " + std::to_string(b) + " (offset " +
                         std::to_string(bi.offset) + ", " + std::to_string(bi.stored_bytes) +
                         " bytes): checksum mismatch (stored " + hex(bi.checksum) + ", computed " +
                         hex(got) + ")");
  }

  // Decodes block b from `payload` (checksum verified) into `out`, with `scratch` for byte planes.
  // A block stored as is moves into `out` without a copy unless `keep` asks to keep `payload`.
  void decode(std::size_t b, std::vector<std::byte>& payload, std::vector<std::byte>& out,
              std::vector<std::byte>& scratch, ZSTD_DCtx* ctx, bool keep) const {
    verify(b, payload);
    const BlockInfo& bi = info.blocks[b];
    const bool compressed = bi.stored_bytes != bi.raw_bytes;
    if (compressed) {
      out.resize(bi.raw_bytes);
      std::size_t n =
          ZSTD_decompressDCtx(ctx, out.data(), out.size(), payload.data(), bi.stored_bytes);
      if (ZSTD_isError(n) || n != bi.raw_bytes)
        throw RunFileError(
            info.path + ": block " + std::to_string(b) + ": decompression failed" +
            (ZSTD_isError(n) ? std::string(": ") + ZSTD_getErrorName(n) : ": wrong size"));
    }
    const std::size_t n = bi.raw_bytes / info.options.record_size;
    if (info.options.shuffle_bytes) {
      scratch.resize(bi.raw_bytes);
      unshuffle_bytes(compressed ? out.data() : payload.data(), scratch.data(), n,
                      info.options.record_size);
      out.swap(scratch);
    } else if (!compressed) {
      if (keep)
        out.assign(payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(bi.raw_bytes));
      else
        out.swap(payload);
    }
    if (info.options.delta_u64_keys) delta_decode(out.data(), n, info.options.record_size);
  }

  // Streams the body once, from the next block (the first unless skipped) to the footer.
  void open_stream() {
    if (in) return;
    const BlockInfo& last = info.blocks.back();
    in = std::make_unique<SequentialReader>(
        info.path, next_block == 0 ? kHeaderBytes : info.blocks[next_block].offset,
        last.offset + last.stored_bytes, io);
  }

  // The stored bytes of block b, the next one in the stream.
  void read_stored(std::size_t b, std::vector<std::byte>& buf) {
    const BlockInfo& bi = info.blocks[b];
    open_stream();
    buf.resize(bi.stored_bytes);
    if (in->read(buf.data(), bi.stored_bytes) != bi.stored_bytes)
      throw RunFileError(info.path + ": block " + std::to_string(b) + ": file ended early");
  }

  void work() {
    for (;;) {
      std::size_t b;
      {
        std::unique_lock lk(m);
        cv.wait(lk, [&] { return stop || !slot.full; });
        if (stop || fetch >= info.blocks.size()) return;
        b = fetch++;
      }
      try {
        read_stored(b, slot.stored);
        slot.decoded = b >= copy_before.load(std::memory_order_relaxed);
        if (slot.decoded)
          decode(b, slot.stored, slot.raw, slot.planes, ahead_dctx, true);
        else
          verify(b, slot.stored);
      } catch (...) {
        slot.error = std::current_exception();
      }
      {
        std::lock_guard lk(m);
        slot.block = b;
        slot.full = true;
      }
      cv.notify_all();
      if (slot.error) return;
    }
  }

  // Waits for the worker's block (the next one), starting the worker on first use.
  Slot& wait_for_slot() {
    if (!worker.joinable()) {
      fetch = next_block;
      open_stream();
      ahead_dctx = ZSTD_createDCtx();
      worker = std::thread([this] { work(); });
    }
    std::unique_lock lk(m);
    cv.wait(lk, [&] { return slot.full; });
    if (slot.error) std::rethrow_exception(slot.error);
    if (slot.block != next_block) throw std::logic_error(info.path + ": decode-ahead out of step");
    return slot;
  }
  void release_slot() {
    {
      std::lock_guard lk(m);
      slot.full = false;
    }
    cv.notify_all();
  }

  bool load_next_block() {
    if (next_block >= info.blocks.size()) return false;
    const BlockInfo& bi = info.blocks[next_block];
    if (ahead) {
      Slot& s = wait_for_slot();
      if (s.decoded)
        raw.swap(s.raw);
      else
        decode(next_block, s.stored, raw, planes, dctx,
               true);  // expected to be copied, but read after all
      release_slot();
    } else {
      read_stored(next_block, stored);
      decode(next_block, stored, raw, planes, dctx, false);
    }
    raw_records = bi.raw_bytes / info.options.record_size;
    raw_pos = 0;
    ++next_block;
    return true;
  }
};

RunReader::RunReader(const std::string& path, IoOptions io, bool decode_ahead)
    : impl_(std::make_unique<Impl>()) {
  impl_->info = inspect_run(path);
  impl_->io = io;
  impl_->ahead = decode_ahead;
}

std::size_t RunReader::memory_bytes(std::uint32_t block_bytes, const IoOptions& io,
                                    bool decode_ahead) {
  // stored + raw + byte-plane block buffers, the ring's buffers, and zstd's decompression context
  // (~160 KiB); decoding ahead, the worker's three block buffers and context beside the raw block
  const std::size_t blocks = decode_ahead ? 4 : 3, contexts = decode_ahead ? 2 : 1;
  return blocks * static_cast<std::size_t>(block_bytes) + 64 * 1024 +
         io.chunk_bytes * io.queue_depth + contexts * (256u << 10);
}

std::size_t RunWriter::memory_bytes(const RunOptions& o) {
  IoOptions io;
  // the block being filled, and when compressing the block in the worker's hands and its output
  return static_cast<std::size_t>(o.block_bytes) * (o.zstd_level == 0 ? 1u
                                                    : o.shuffle_bytes ? 3u
                                                                      : 2u) +
         ZSTD_compressBound(o.block_bytes) + io.chunk_bytes * io.queue_depth +
         (o.zstd_level != 0 ? (o.zstd_level <= 3 ? (2u << 20) : (64u << 20))
                            : 0);  // zstd CCtx, generous
}
RunReader::~RunReader() = default;
const RunInfo& RunReader::info() const { return impl_->info; }

bool RunReader::next(void* record) {
  const void* p;
  if (next_span(&p, 1) == 0) return false;
  std::memcpy(record, p, impl_->info.options.record_size);
  return true;
}

std::size_t RunReader::next_span(const void** records, std::size_t max) {
  auto& I = *impl_;
  while (I.raw_pos >= I.raw_records)
    if (!I.load_next_block()) return 0;
  std::size_t n = std::min(max, I.raw_records - I.raw_pos);
  *records = I.raw.data() + I.raw_pos * I.info.options.record_size;
  I.raw_pos += n;
  return n;
}

bool RunReader::at_block_end() const { return impl_->raw_pos >= impl_->raw_records; }
std::size_t RunReader::next_block_index() const { return impl_->next_block; }

void RunReader::read_stored_block(std::vector<std::byte>& stored) {
  auto& I = *impl_;
  if (!at_block_end()) throw std::logic_error(I.info.path + ": read_stored_block inside a block");
  if (I.next_block >= I.info.blocks.size())
    throw std::logic_error(I.info.path + ": read_stored_block past the last block");
  if (I.ahead) {
    stored.swap(I.wait_for_slot().stored);  // checked by the worker
    I.release_slot();
  } else {
    I.read_stored(I.next_block, stored);
    I.verify(I.next_block, stored);
  }
  ++I.next_block;
}

void RunReader::will_copy_blocks_below(std::optional<std::uint64_t> key) {
  auto& I = *impl_;
  std::size_t before = I.info.blocks.size();
  if (key) {  // the blocks before the last one that starts at or below the key
    const std::size_t n = I.info.blocks_starting_at_or_below(*key, I.next_block);
    before = n == 0 ? 0 : n - 1;
  }
  I.copy_before.store(before, std::memory_order_relaxed);
}

void RunReader::skip_to(std::uint64_t record) {
  auto& I = *impl_;
  if (I.in || I.raw_records > 0)
    throw std::logic_error(I.info.path + ": skip_to after reading began");
  if (record >= I.info.record_count) {
    I.next_block = I.info.blocks.size();
    return;
  }
  const auto& blocks = I.info.blocks;
  I.next_block = static_cast<std::size_t>(
      std::upper_bound(blocks.begin(), blocks.end(), record,
                       [](std::uint64_t r, const BlockInfo& b) { return r < b.first_record; }) -
      blocks.begin() - 1);
  const std::uint64_t first = blocks[I.next_block].first_record;
  if (!I.load_next_block()) return;
  I.raw_pos = static_cast<std::size_t>(record - first);
}

std::vector<std::byte> RunReader::read_block(std::size_t b) {
  auto& I = *impl_;
  if (b >= I.info.blocks.size())
    throw std::out_of_range(I.info.path + ": no block " + std::to_string(b));
  auto stored = read_at(I.info.path, I.info.blocks[b].offset, I.info.blocks[b].stored_bytes);
  std::vector<std::byte> out, scratch;
  I.decode(b, stored, out, scratch, I.dctx, false);
  return out;
}

RunInfo verify_run(const std::string& path) {
  RunReader r(path);
  const void* p;
  std::uint64_t n = 0, got;
  while ((got = r.next_span(&p, SIZE_MAX)) > 0) n += got;
  if (n != r.info().record_count) throw RunFileError(path + ": record count mismatch");
  return r.info();
}

}  // namespace zermelo
