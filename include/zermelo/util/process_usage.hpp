// What this process has used so far: peak resident memory and CPU time, for run reports.
//
// Why: reports of long solves state their peak RSS and CPU time (a figure that does not depend on
// how busy a shared machine was) beside the wall clock; one place reads them from the kernel.
#pragma once
#include <cstdint>

namespace zermelo {

std::uint64_t peak_rss_bytes();  // VmHWM of /proc/self/status; 0 if unreadable
double process_cpu_seconds();    // user + system, all threads

}  // namespace zermelo
