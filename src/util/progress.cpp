#include "zermelo/util/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "zermelo/util/activity.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo {
namespace {
bool g_enabled = true;
}

void Progress::set_enabled(bool on) { g_enabled = on; }

void Progress::note(const std::string& line) {
  if (!g_enabled) return;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

Progress::Progress(std::string label, std::uint64_t total_records)
    : label_(std::move(label)),
      total_(total_records),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_),
      tty_(::isatty(2) != 0) {
  set_activity(label_);
}

Progress::~Progress() { finish(); }

void Progress::add(std::uint64_t records, std::uint64_t bytes) {
  records_ += records;
  bytes_ += bytes;
  // Called per record in hot loops: look at the clock only every 1024 calls, or when a call adds a
  // batch (per-batch callers make few calls).
  if (!g_enabled || ((++calls_ & 0x3FF) != 0 && records < 1024)) return;
  auto now = std::chrono::steady_clock::now();
  auto since_start = now - start_, since_draw = now - last_draw_;
  if (since_start < std::chrono::seconds(1)) return;
  if (since_draw < (tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(10000)) &&
      shown_)
    return;
  last_draw_ = now;
  draw(false);
}

void Progress::finish() {
  if (done_) return;
  done_ = true;
  if (shown_ && g_enabled) draw(true);
}

void Progress::draw(bool final) {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = secs > 0 ? static_cast<double>(records_) / secs : 0;
  char line[256];
  int n = std::snprintf(line, sizeof line, "%s: %llu", label_.c_str(),
                        static_cast<unsigned long long>(records_));
  if (total_ > 0)
    n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), "/%llu (%.1f%%)",
                       static_cast<unsigned long long>(total_),
                       100.0 * static_cast<double>(records_) / static_cast<double>(total_));
  n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), "  %.3g rec/s", rate);
  if (bytes_ > 0)
    n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), "  %s/s",
                       format_bytes(static_cast<double>(bytes_) / (secs > 0 ? secs : 1)).c_str());
  if (!final && total_ > records_ && rate > 0)
    n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), "  ETA %.0fs",
                       static_cast<double>(total_ - records_) / rate);
  else if (final)
    n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), "  in %.1fs", secs);
  std::fprintf(stderr, tty_ ? "\r%-100s%s" : "%s%s", line, final || !tty_ ? "\n" : "");
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace zermelo
