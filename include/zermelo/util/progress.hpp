// A progress line on stderr for long passes: records/s, bytes/s and the ETA. Silent for the first
// second (short passes print nothing), redrawn in place on a terminal, a line every 10 s otherwise.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace zermelo {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total_records = 0);
  ~Progress();  // prints the final line if anything was shown
  // Adds to the counters; cheap enough to call per block, not per record.
  void add(std::uint64_t records, std::uint64_t bytes = 0);
  void finish();

  static void set_enabled(bool on);  // --quiet turns every bar off
  // A one-line report on stderr (a pass's summary), silenced like the bars.
  static void note(const std::string& line);

 private:
  void draw(bool final);
  std::string label_;
  std::uint64_t total_, records_ = 0, bytes_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool shown_ = false, done_ = false;
  bool tty_ = false;  // stderr is a terminal: redraw in place
  std::uint64_t calls_ = 0;
};

}  // namespace zermelo
