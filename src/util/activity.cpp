// The current activity in fixed buffers (activity.hpp).
#include "zermelo/util/activity.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace zermelo {
namespace {

constexpr std::size_t kSlots = 4, kBytes = 96;
char g_slots[kSlots][kBytes];
std::atomic<const char*> g_current{""};
std::atomic<unsigned> g_next{0};

}  // namespace

void set_activity(std::string_view what) {
  // A fresh slot each time, so a reader never sees a slot being rewritten unless it is four
  // updates behind (then it may print a mixed label, never read out of bounds).
  char* slot = g_slots[g_next.fetch_add(1, std::memory_order_relaxed) % kSlots];
  const std::size_t n = std::min(what.size(), kBytes - 1);
  std::memcpy(slot, what.data(), n);
  slot[n] = '\0';
  g_current.store(slot, std::memory_order_release);
}

const char* current_activity() { return g_current.load(std::memory_order_acquire); }

}  // namespace zermelo
