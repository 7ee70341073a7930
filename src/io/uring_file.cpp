#include "zermelo/io/uring_file.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "zermelo/io/run_file.hpp"  // RunFileError

namespace zermelo {
namespace {

constexpr std::size_t kAlign = 4096;

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw RunFileError(path + ": " + what + ": " + std::strerror(err));
}

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

struct AlignedBuffer {
  std::byte* data = nullptr;
  std::size_t size = 0;
  explicit AlignedBuffer(std::size_t n)
      : data(static_cast<std::byte*>(std::aligned_alloc(kAlign, round_up(n)))), size(round_up(n)) {
    if (!data) throw std::bad_alloc();
  }
  ~AlignedBuffer() { std::free(data); }
  AlignedBuffer(AlignedBuffer&& o) noexcept : data(o.data), size(o.size) { o.data = nullptr; }
  AlignedBuffer(const AlignedBuffer&) = delete;
};

// Opens with O_DIRECT when asked and allowed; otherwise buffered. Returns the fd and sets `direct`.
int open_file(const std::string& path, int flags, bool want_direct, bool& direct) {
  // A file-size limit (RLIMIT_FSIZE) must surface as EFBIG from write, not kill the process.
  static const bool ignore_xfsz = [] {
    std::signal(SIGXFSZ, SIG_IGN);
    return true;
  }();
  (void)ignore_xfsz;
  int fd = -1;
  direct = false;
  if (want_direct) {
    fd = ::open(path.c_str(), flags | O_DIRECT | O_CLOEXEC, 0644);
    if (fd >= 0)
      direct = true;
    else if (errno != EINVAL)
      fail(path, "cannot open", errno);
  }
  if (fd < 0) {
    fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) fail(path, "cannot open", errno);
  }
  return fd;
}

std::atomic<std::uint64_t>& rings_set_up_counter() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}
std::atomic<std::uint64_t>& requests_reissued_counter() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

// The user data of a cancel request (a buffer's request carries the buffer's index).
constexpr std::uint64_t kCancelTag = ~std::uint64_t{0};

// A ring with a set of aligned buffers, each in flight at most once. The buffers are registered
// (pinned) at the first request if it fills a buffer: a small file, written or read in one short
// request, is not worth pinning every buffer (0.6 ms a file, half the system time of a solve
// over many small sets' files). A ring outlives its file in the RingPool below.
struct Ring {
  io_uring ring{};
  std::vector<AlignedBuffer> buffers;
  bool registered = false;
  bool first_request = true;
  bool stalled = false;  // a request never completed: nothing more is waited for
  bool broken = false;   // a failed submission or wait: its state is unknown, never reused
  std::string path;
  unsigned retry_seconds, stall_seconds;
  // Each buffer's request in flight, kept to be issued again after a cancel (see wait()).
  struct Request {
    int fd = -1;
    bool write = false;
    std::size_t buf_offset = 0, len = 0;
    std::uint64_t file_offset = 0;
  };
  std::vector<Request> requests;

  Ring(const std::string& p, unsigned depth, std::size_t chunk, const IoOptions& o)
      : path(p), retry_seconds(o.retry_seconds), stall_seconds(o.stall_seconds), requests(depth) {
    int r = io_uring_queue_init(std::max(8u, depth * 2), &ring, 0);
    if (r < 0) fail(path, "io_uring_queue_init", -r);
    rings_set_up_counter().fetch_add(1, std::memory_order_relaxed);
    for (unsigned i = 0; i < depth; ++i) buffers.emplace_back(chunk);
  }
  ~Ring() { io_uring_queue_exit(&ring); }
  std::size_t bytes() const { return buffers.size() * buffers.front().size; }

  // At the first request, with nothing in flight yet; unregistered buffers work the same.
  void register_if_worth_it(std::size_t len) {
    if (!first_request) return;
    first_request = false;
    if (len < buffers.front().size) return;
    std::vector<iovec> iov;
    for (auto& b : buffers) iov.push_back(iovec{b.data, b.size});
    registered =
        io_uring_register_buffers(&ring, iov.data(), static_cast<unsigned>(iov.size())) == 0;
  }

  void submit(int fd, bool write, unsigned buf, std::size_t buf_offset, std::size_t len,
              std::uint64_t file_offset) {
    requests[buf] = Request{fd, write, buf_offset, len, file_offset};
    issue(buf);
  }

  io_uring_sqe* next_sqe() {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    if (!sqe) {
      io_uring_submit(&ring);
      sqe = io_uring_get_sqe(&ring);
      if (!sqe) broken = true, fail(path, "io_uring submission queue full", EBUSY);
    }
    return sqe;
  }

  // Submits buffer buf's request (requests[buf]).
  void issue(unsigned buf) {
    const Request& q = requests[buf];
    register_if_worth_it(q.len);
    io_uring_sqe* sqe = next_sqe();
    std::byte* p = buffers[buf].data + q.buf_offset;
    const auto n = static_cast<unsigned>(q.len);
    const int fd = q.fd, index = static_cast<int>(buf);
    if (registered) {
      if (q.write)
        io_uring_prep_write_fixed(sqe, fd, p, n, q.file_offset, index);
      else
        io_uring_prep_read_fixed(sqe, fd, p, n, q.file_offset, index);
    } else {
      if (q.write)
        io_uring_prep_write(sqe, fd, p, n, q.file_offset);
      else
        io_uring_prep_read(sqe, fd, p, n, q.file_offset);
    }
    io_uring_sqe_set_data64(sqe, buf);
    int r = io_uring_submit(&ring);
    if (r < 0) broken = true, fail(path, "io_uring_submit", -r);
  }

  // Waits out every request still in flight before the buffers go away (errors are moot then).
  // After a stall there is no waiting: the ring's exit leaves the requests to the kernel.
  template <class Slots>
  void abandon(Slots& slots) {
    try {
      for (auto& s : slots)
        while (s.busy && !stalled) slots[wait().first].busy = false;
    } catch (const RunFileError&) {  // a stall or a failed wait: the file is abandoned anyway
    }
  }

  // Asks the kernel to cancel every request in flight; each is issued again when its cancelled
  // completion arrives. The cancel's own completion carries kCancelTag and is skipped.
  void cancel_all(unsigned waited_seconds) {
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
    io_uring_sqe_set_data64(sqe, kCancelTag);
    const int r = io_uring_submit(&ring);
    if (r < 0) broken = true, fail(path, "io_uring_submit (cancel)", -r);
    requests_reissued_counter().fetch_add(1, std::memory_order_relaxed);
    std::fprintf(stderr,
                 "zermelo: %s: no I/O completion for %u s: requests cancelled and issued "
                 "again\n",
                 path.c_str(), waited_seconds);
  }

  // Waits for one completion; returns (buffer index, result). A request with no completion for
  // retry_seconds is cancelled and issued again (requests have been seen to sit in the kernel for
  // ever, with the disk idle, until cancelled: docs/run-format.md, "Writing protocol"), then
  // after twice as long again, and so on; after stall_seconds with none, throws.
  std::pair<unsigned, int> wait() {
    unsigned step = std::max(1u, std::min(retry_seconds, stall_seconds));
    for (unsigned waited = 0;;) {
      io_uring_cqe* cqe = nullptr;
      __kernel_timespec limit{static_cast<long long>(step), 0};
      int r;
      do r = io_uring_wait_cqe_timeout(&ring, &cqe, &limit);
      while (r == -EINTR);
      if (r == -ETIME) {
        waited += step;
        if (waited < stall_seconds) {
          cancel_all(waited);
          step = std::min(2 * step, stall_seconds - waited);  // gentler on a merely slow device
          continue;
        }
        stalled = broken = true;
        throw RunFileError(
            path + ": no I/O completion for " + std::to_string(stall_seconds) +
            " s: the device or the kernel stalled (the pass can be run again: resume)");
      }
      if (r < 0) broken = true, fail(path, "io_uring_wait_cqe", -r);
      const std::uint64_t tag = io_uring_cqe_get_data64(cqe);
      const int res = cqe->res;
      io_uring_cqe_seen(&ring, cqe);
      if (tag == kCancelTag) continue;
      const auto buf = static_cast<unsigned>(tag);
      // Only cancel_all cancels or interrupts a request of ours: it had not been done, so again.
      if (res == -ECANCELED || res == -EINTR) {
        issue(buf);
        continue;
      }
      return {buf, res};
    }
  }
};

// Rings kept between files, with their buffers (registered or not). An external DFA pass opens a
// file a layer, and a small one costs more to set up than to write: a ring, its buffers allocated
// and faulted in, often pinned (a 4x5 Breakthrough solve set up 42,672 rings). A file takes an
// idle ring of its depth and buffer size and gives it back when closed, unless a request could
// still be in flight or the ring failed. At most kIdleBytes of buffers wait idle, inside the
// per-pass overhead the memory budgets reserve.
class RingPool {
 public:
  static constexpr std::size_t kIdleBytes = 8u << 20;

  static std::unique_ptr<Ring> take(const std::string& path, unsigned depth, std::size_t chunk,
                                    const IoOptions& o) {
    RingPool& pool = get();
    {
      std::lock_guard lock(pool.mu_);
      pool.forget_after_fork();
      for (auto it = pool.idle_.begin(); it != pool.idle_.end(); ++it) {
        if ((*it)->buffers.size() != depth || (*it)->buffers.front().size != round_up(chunk))
          continue;
        std::unique_ptr<Ring> ring = std::move(*it);
        pool.idle_.erase(it);
        pool.idle_bytes_ -= ring->bytes();
        ring->path = path, ring->first_request = !ring->registered;
        ring->retry_seconds = o.retry_seconds, ring->stall_seconds = o.stall_seconds;
        return ring;
      }
    }
    return std::make_unique<Ring>(path, depth, chunk, o);
  }

  // `idle`: no request of the ring's file is in flight.
  static void give_back(std::unique_ptr<Ring> ring, bool idle) {
    if (!idle || ring->broken || ring->bytes() > kIdleBytes) return;
    RingPool& pool = get();
    std::lock_guard lock(pool.mu_);
    pool.forget_after_fork();
    pool.idle_bytes_ += ring->bytes();
    pool.idle_.push_back(std::move(ring));
    while (pool.idle_bytes_ > kIdleBytes) {  // the longest idle go first
      pool.idle_bytes_ -= pool.idle_.front()->bytes();
      pool.idle_.erase(pool.idle_.begin());
    }
  }

 private:
  static RingPool& get() {
    static auto* pool = new RingPool;  // never destroyed: a file may close during the exit
    return *pool;
  }
  // A forked child shares its parent's rings (the queues are shared memory) while its copies of
  // the registered buffers are not the pinned pages: it must set up rings of its own.
  void forget_after_fork() {
    if (owner_ == ::getpid()) return;
    for (auto& ring : idle_) (void)ring.release();  // the parent's to close; the child only forgets
    idle_.clear(), idle_bytes_ = 0, owner_ = ::getpid();
  }
  pid_t owner_ = ::getpid();
  std::mutex mu_;
  std::vector<std::unique_ptr<Ring>> idle_;
  std::size_t idle_bytes_ = 0;
};

template <class Slots>
bool none_busy(const Slots& slots) {
  return std::none_of(slots.begin(), slots.end(), [](const auto& s) { return s.busy; });
}

}  // namespace

// ---------------------------------------------------------------- writer

struct SequentialWriter::Impl {
  std::string path;
  IoOptions opt;
  int fd = -1;
  bool direct = false;
  std::unique_ptr<Ring> ring_;
  Ring& ring;
  struct Slot {
    bool busy = false;
    std::uint64_t offset = 0;  // file offset of the request
    std::size_t len = 0;       // bytes requested
    std::size_t done = 0;      // bytes completed so far (short writes are re-queued)
  };
  std::vector<Slot> slots;
  unsigned cur = 0;
  std::size_t fill = 0;       // bytes in the current buffer
  std::uint64_t flushed = 0;  // file offset where the current buffer goes
  bool finished = false;
  bool rewritten = false;  // an overwrite since finish(): the next finish() syncs it

  Impl(const std::string& p, IoOptions o)
      : path(p),
        opt(o),
        fd(open_file(p, O_WRONLY | O_CREAT | O_TRUNC, o.direct, direct)),
        ring_(RingPool::take(p, o.queue_depth, o.chunk_bytes, o)),
        ring(*ring_),
        slots(o.queue_depth) {}
  ~Impl() {
    ring.abandon(slots);
    if (fd >= 0) ::close(fd);
    RingPool::give_back(std::move(ring_), none_busy(slots));
  }

  void complete_one() {
    auto [b, res] = ring.wait();
    Slot& s = slots[b];
    if (res <= 0) {
      s.busy = false;  // nothing more is in flight for this slot
      fail(path, "write at offset " + std::to_string(s.offset + s.done), res < 0 ? -res : ENOSPC);
    }
    s.done += static_cast<std::size_t>(res);
    if (s.done < s.len) {  // short write: queue the rest
      ring.submit(fd, true, b, s.done, s.len - s.done, s.offset + s.done);
      return;
    }
    s.busy = false;
  }

  void submit_current(std::size_t len) {
    Slot& s = slots[cur];
    s = Slot{true, flushed, len, 0};
    ring.submit(fd, true, cur, 0, len, flushed);
    flushed += len;
    cur = (cur + 1) % static_cast<unsigned>(slots.size());
    fill = 0;
    while (slots[cur].busy) complete_one();
  }

  void drain() {
    for (unsigned i = 0; i < slots.size(); ++i)
      while (slots[i].busy) complete_one();
  }
};

SequentialWriter::SequentialWriter(const std::string& path, IoOptions options)
    : impl_(std::make_unique<Impl>(path, options)) {}
SequentialWriter::~SequentialWriter() = default;

void SequentialWriter::write(const void* data, std::size_t n) {
  auto& I = *impl_;
  auto* src = static_cast<const std::byte*>(data);
  const std::size_t cap = I.ring.buffers[0].size;
  while (n > 0) {
    std::size_t take = std::min(n, cap - I.fill);
    std::memcpy(I.ring.buffers[I.cur].data + I.fill, src, take);
    I.fill += take, src += take, n -= take;
    if (I.fill == cap) I.submit_current(cap);
  }
}

std::uint64_t SequentialWriter::position() const { return impl_->flushed + impl_->fill; }
bool SequentialWriter::is_direct() const { return impl_->direct; }

void SequentialWriter::overwrite(std::uint64_t offset, const void* data, std::size_t n) {
  auto& I = *impl_;
  if (offset % kAlign || n % kAlign || offset + n > I.flushed)
    throw RunFileError(I.path + ": internal error: unaligned or unflushed overwrite");
  I.drain();
  AlignedBuffer tmp(n);
  std::memcpy(tmp.data, data, n);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pwrite(I.fd, tmp.data + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0)
      fail(I.path, "rewrite at offset " + std::to_string(offset + done), r < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(r);
  }
  I.rewritten = true;
}

void SequentialWriter::finish() {
  auto& I = *impl_;
  if (I.finished) {
    if (I.rewritten && I.opt.durable && ::fsync(I.fd) != 0) fail(I.path, "fsync", errno);
    I.rewritten = false;
    return;
  }
  std::uint64_t logical = position();
  if (I.fill > 0) {
    std::size_t padded = round_up(I.fill);
    std::memset(I.ring.buffers[I.cur].data + I.fill, 0, padded - I.fill);
    I.submit_current(padded);
  }
  I.drain();
  if (::ftruncate(I.fd, static_cast<off_t>(logical)) != 0) fail(I.path, "ftruncate", errno);
  if (I.opt.durable && ::fsync(I.fd) != 0) fail(I.path, "fsync", errno);
  I.finished = true;
  I.rewritten = false;
}

// ---------------------------------------------------------------- reader

struct SequentialReader::Impl {
  std::string path;
  int fd = -1;
  bool direct = false;
  std::unique_ptr<Ring> ring_;
  Ring& ring;
  std::uint64_t end = 0;       // absolute end of the range
  std::uint64_t next_request;  // aligned file offset of the next read to queue
  struct Slot {
    bool busy = false, ready = false;
    std::uint64_t offset = 0;
    std::size_t len = 0, done = 0;
  };
  std::vector<Slot> slots;
  unsigned cur = 0;         // slot being consumed
  std::size_t cur_pos = 0;  // bytes consumed in it
  std::uint64_t pos;        // absolute offset of the next byte to return

  // A short range needs requests no longer than itself: a reader of a small file (verify walks
  // many) neither allocates nor pins (io_uring_register_buffers) full-size chunks.
  static std::size_t chunk_for(const std::string& p, std::uint64_t begin, std::uint64_t e,
                               std::size_t chunk) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return chunk;  // open_file names the problem
    const std::uint64_t last = std::min<std::uint64_t>(e, static_cast<std::uint64_t>(st.st_size));
    const std::uint64_t first = begin / kAlign * kAlign;
    const std::uint64_t span = last > first ? last - first : 0;
    // A power of two, so that readers of small files of similar sizes share pooled rings.
    return static_cast<std::size_t>(
        std::clamp<std::uint64_t>(std::bit_ceil(round_up(span)), kAlign, chunk));
  }

  Impl(const std::string& p, std::uint64_t begin, std::uint64_t e, IoOptions o)
      : path(p),
        fd(open_file(p, O_RDONLY, o.direct, direct)),
        ring_(RingPool::take(p, o.queue_depth, chunk_for(p, begin, e, o.chunk_bytes), o)),
        ring(*ring_),
        slots(o.queue_depth),
        pos(begin) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(path, "fstat", errno);
    end = std::min<std::uint64_t>(e, static_cast<std::uint64_t>(st.st_size));
    if (begin > end) throw RunFileError(path + ": read range starts past the end of the file");
    next_request = begin / kAlign * kAlign;
    cur_pos = begin - next_request;
    for (unsigned i = 0; i < slots.size(); ++i) queue(i);
  }
  ~Impl() {
    ring.abandon(slots);
    if (fd >= 0) ::close(fd);
    RingPool::give_back(std::move(ring_), none_busy(slots));
  }

  void queue(unsigned b) {
    Slot& s = slots[b];
    s = Slot{};
    if (next_request >= end) return;  // nothing left: the slot stays idle
    std::size_t len = static_cast<std::size_t>(
        std::min<std::uint64_t>(ring.buffers[b].size, round_up(end - next_request)));
    s = Slot{true, false, next_request, len, 0};
    ring.submit(fd, false, b, 0, len, next_request);
    next_request += len;
  }

  void complete_one() {
    auto [b, res] = ring.wait();
    Slot& s = slots[b];
    if (res < 0) {
      s.busy = false;
      fail(path, "read at offset " + std::to_string(s.offset + s.done), -res);
    }
    s.done += static_cast<std::size_t>(res);
    bool at_eof = res == 0 || s.offset + s.done >= end;
    if (s.done < s.len && !at_eof) {
      ring.submit(fd, false, b, s.done, s.len - s.done, s.offset + s.done);
      return;
    }
    s.busy = false;
    s.ready = true;
  }
};

SequentialReader::SequentialReader(const std::string& path, std::uint64_t begin, std::uint64_t end,
                                   IoOptions options)
    : impl_(std::make_unique<Impl>(path, begin, end, options)) {}
SequentialReader::~SequentialReader() = default;

std::size_t SequentialReader::read(void* dst, std::size_t n) {
  auto& I = *impl_;
  auto* out = static_cast<std::byte*>(dst);
  std::size_t total = 0;
  while (total < n && I.pos < I.end) {
    auto& s = I.slots[I.cur];
    if (!s.busy && !s.ready) break;  // no request: the range is exhausted
    while (!s.ready) I.complete_one();
    std::size_t avail_in_slot = s.done > I.cur_pos ? s.done - I.cur_pos : 0;
    std::size_t take = static_cast<std::size_t>(
        std::min<std::uint64_t>({n - total, avail_in_slot, I.end - I.pos}));
    if (take == 0) {
      if (s.done < s.len)
        throw RunFileError(I.path + ": file ended early at offset " +
                           std::to_string(s.offset + s.done));
    } else {
      std::memcpy(out + total, I.ring.buffers[I.cur].data + I.cur_pos, take);
      total += take, I.pos += take, I.cur_pos += take;
    }
    if (I.cur_pos >= s.done || I.pos >= I.end) {
      if (I.cur_pos < s.done) break;  // range ended inside this slot
      I.queue(I.cur);
      I.cur = (I.cur + 1) % static_cast<unsigned>(I.slots.size());
      I.cur_pos = 0;
    }
  }
  return total;
}

std::uint64_t SequentialReader::position() const { return impl_->pos; }
bool SequentialReader::is_direct() const { return impl_->direct; }

// ---------------------------------------------------------------- helpers

std::uint64_t rings_set_up() { return rings_set_up_counter().load(std::memory_order_relaxed); }
std::uint64_t io_retries() { return requests_reissued_counter().load(std::memory_order_relaxed); }

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, "cannot stat", errno);
  return static_cast<std::uint64_t>(st.st_size);
}

std::vector<std::byte> read_at(const std::string& path, std::uint64_t offset, std::size_t n) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open", errno);
  std::vector<std::byte> out(n);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd, out.data() + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      int err = r < 0 ? errno : 0;
      ::close(fd);
      if (err) fail(path, "read at offset " + std::to_string(offset + done), err);
      throw RunFileError(path + ": truncated: wanted " + std::to_string(n) + " bytes at offset " +
                         std::to_string(offset) + ", file ends after " + std::to_string(done));
    }
    done += static_cast<std::size_t>(r);
  }
  ::close(fd);
  return out;
}

void sync_directory_of(const std::string& path) {
  auto dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: some file systems refuse directory fds
  ::fsync(fd);
  ::close(fd);
}

}  // namespace zermelo
