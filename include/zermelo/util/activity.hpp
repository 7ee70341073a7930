// What the process is doing now, in a few words ("level 12 4v4", "init 5v5"), so that an
// interrupted run can say where it stopped. Every progress bar sets it. It is read from a signal
// handler, so it lives in fixed buffers published through an atomic pointer, not in a string.
#pragma once
#include <string_view>

namespace zermelo {

void set_activity(std::string_view what);
// Async-signal-safe: the last activity set, NUL-terminated ("" before any).
const char* current_activity();

}  // namespace zermelo
