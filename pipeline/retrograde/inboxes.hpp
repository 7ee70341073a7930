// The shards' inboxes of a level's messages in one process (shard_inboxes.hpp), each sorter in
// its share of the memory the filter and the shards' passes leave.
#pragma once
#include "pipeline/retrograde/shard_inboxes.hpp"
#include "pipeline/retrograde/state.hpp"

namespace zermelo::retro {

class Inboxes final : public InboxesOf<Msg> {
 public:
  explicit Inboxes(const SolveState& s);
};

}  // namespace zermelo::retro
