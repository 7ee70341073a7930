// One place where the engine's exceptions become the probe API's: whatever a probe throws reaches
// the caller as a probe::Error with a code, never as another type (and, through the C API, never
// as an exception at all).
#pragma once
#include <exception>

#include "zermelo/probe.hpp"

namespace zermelo::probe {

// Runs fn; an exception that is not a probe::Error already becomes one with `code`.
template <class Fn>
auto guarded(ErrorCode code, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(code, e.what());
  }
}

}  // namespace zermelo::probe
