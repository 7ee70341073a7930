// A loop over a batch on all threads (OpenMP) whose workers may throw.
//
// Why: an exception that leaves an OpenMP region terminates the process, so each worker catches
// its own; copying the message into a string would lose the type (a RunFileError, an
// invalid_argument a caller tells apart, an std::bad_alloc). Each thread keeps the first
// std::exception_ptr it meets and skips the rest of its share; after the region the first
// thread's (in thread order) is rethrown as it was thrown.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <vector>

namespace zermelo {

// The threads a pass runs on: at least one.
inline std::size_t worker_count(unsigned threads) { return std::max(1u, threads); }

// body(thread, i, local) for every i in [0, n), dynamically scheduled in chunks of `chunk`;
// `local` is a Local made once a thread (scratch such as a vector of children).
template <class Local, class Body>
void parallel_for(unsigned threads, std::size_t n, std::size_t chunk, Body&& body) {
  const std::size_t T = worker_count(threads);
  std::vector<std::exception_ptr> errors(T);
#pragma omp parallel num_threads(static_cast <int>(T))
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    Local local{};
#pragma omp for schedule(dynamic, chunk)
    for (std::size_t i = 0; i < n; ++i) {
      if (errors[t]) continue;
      try {
        body(t, i, local);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace zermelo
