// A values run with records put back (see write_values_with in values_run.hpp): a check that a
// solve whose state set lost some states, no move leading to them, kept every other value.
#include <stdexcept>

#include "zermelo/engine/values_run.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {

namespace {

void check_sorted(const std::vector<KeyValue>& extra) {
  for (std::size_t i = 1; i < extra.size(); ++i)
    if (extra[i - 1].key >= extra[i].key)
      throw std::invalid_argument("records to put back are not sorted by key (key " +
                                  std::to_string(extra[i].key) + ")");
}

}  // namespace

RunInfo write_values_with(const std::string& values_path, const std::vector<KeyValue>& extra,
                          const std::string& out_path) {
  check_sorted(extra);
  RunReader in(values_path, {}, /*decode_ahead=*/true);
  if (!is_values_run(in.info().options))
    throw std::invalid_argument(values_path + " is not a values run");
  RunWriter out(out_path, values_run_options());
  Progress bar("put back " + std::to_string(extra.size()) + " states", in.size());
  std::size_t next = 0;
  const void* span = nullptr;
  while (std::size_t n = in.next_span(&span, std::size_t{1} << 16)) {
    const auto* kv = static_cast<const KeyValue*>(span);
    for (std::size_t i = 0; i < n; ++i) {
      for (; next < extra.size() && extra[next].key <= kv[i].key; ++next) {
        if (extra[next].key == kv[i].key)
          throw std::invalid_argument("key " + std::to_string(kv[i].key) + " is already in " +
                                      values_path);
        out.push(extra[next]);
      }
      out.push(kv[i]);
    }
    bar.add(n);
  }
  for (; next < extra.size(); ++next) out.push(extra[next]);
  return out.finish();
}

}  // namespace zermelo
