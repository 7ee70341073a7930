// See exit_values.hpp.
#include "pipeline/exit_values.hpp"

#include <cstring>
#include <stdexcept>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {

std::uint64_t ExitValues::bytes_for(const Game& game, const std::string& tier) {
  return huge_page_bytes(game.exit_slots(tier).size() * sizeof(std::uint16_t));
}

ExitValues::ExitValues(const Game& game, const std::string& tier,
                       const std::vector<std::string>& lower_values)
    : game_(game), range_(game.exit_slots(tier)), values_(range_.size(), 0) {
  std::uint64_t total = 0;
  for (auto& p : lower_values) total += inspect_run(p).record_count;
  Progress bar("init: exit values of " + tier, total);
  for (auto& p : lower_values) {
    RunReader run(p);
    const void* span;
    while (std::size_t n = run.next_span(&span, 1u << 16)) {
      const auto* bytes = static_cast<const unsigned char*>(span);
      for (std::size_t i = 0; i < n; ++i) {
        KeyValue kv;
        std::memcpy(&kv, bytes + i * sizeof kv, sizeof kv);
        const std::uint64_t slot = game.exit_slot(kv.key);
        if (slot < range_.first || slot >= range_.end)
          continue;  // a state no move of this tier reaches
        std::uint16_t& v = values_[slot - range_.first];
        if (v != 0)
          throw std::logic_error(game.name() + ": exit_slot gives state " + std::to_string(kv.key) +
                                 " slot " + std::to_string(slot) + ", which another state of " + p +
                                 " already has");
        v = kv.value;
      }
      bar.add(n);
    }
  }
}

Value ExitValues::find(StateKey child, StateKey parent) const {
  const std::uint64_t slot = game_.exit_slot(child);
  if (slot < range_.first || slot >= range_.end)
    throw std::logic_error(game_.name() + ": child " + std::to_string(child) + " of " +
                           std::to_string(parent) + " is in another tier but has no exit slot");
  const Value v = Value::from_raw(values_[slot - range_.first]);
  if (!v.is_known())
    throw std::runtime_error(game_.name() + ": child " + std::to_string(child) + " of " +
                             std::to_string(parent) + " is in no lower tier's values run");
  return v;
}

}  // namespace zermelo::retro
