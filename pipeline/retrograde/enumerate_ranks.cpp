// Step 1 under MPI, for a game with un-moves: each rank enumerates a share of the tier and ends
// with the keys of its own shards only, in its keys.run (docs/distributed.md).
//
// 1. The rank's share, sorted: a contiguous share of the game's enumeration parts
//    (Game::enumeration_parts), or without them every N-th state of the whole walk.
// 2. The shards' first keys, the single process's (key_select.hpp), from the shares' counts.
// 3. The shares exchanged by key range through the Cluster, each rank sorting what it owns.
// A rank that needs no keys (recorded before a kill that another rank did not survive) still
// enumerates and sends its share, and drops what it receives.
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/retrograde/key_select.hpp"
#include "pipeline/retrograde/key_walk.hpp"
#include "pipeline/retrograde/parts_walk.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "zermelo/engine/cluster.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// Without parts every rank walks the whole enumeration and keeps every N-th state.
StateWalk every_nth_state(const SolveState& s, unsigned rank, unsigned ranks) {
  return [&s, rank, ranks](const EmitKey& emit) {
    std::uint64_t i = 0;
    s.game.enumerate(s.opt.tier, [&](StateKey k) {
      if (i++ % ranks == rank) emit(k);
    });
  };
}

// This rank's share of the tier's states, as a sorted run: its contiguous share of the parts,
// walked on all its threads.
RunInfo enumerate_share(const SolveState& s, const std::string& path) {
  const unsigned rank = s.opt.cluster->rank(), ranks = s.opt.cluster->ranks();
  const std::uint64_t parts = s.game.enumeration_parts(s.opt.tier);
  const StateWalk share = parts > 1 ? parts_walk(s.game, s.opt.tier, parts * rank / ranks,
                                                 parts * (rank + 1) / ranks, s.opt.threads)
                                    : every_nth_state(s, rank, ranks);
  return walk_to_sorted_run(s, share, s.game.enumerates_in_key_order(), path);
}

// The keys other ranks send this one, pushed from the Cluster's thread and this one.
class KeyInbox {
 public:
  KeyInbox(const SolveState& s, bool keep) {
    if (keep) sorter_.emplace(sort_options(s, Sorter::enumerate));
  }
  void push(const std::uint64_t* keys, std::size_t n) {
    if (!sorter_) return;
    const std::lock_guard<std::mutex> hold(lock_);
    for (std::size_t i = 0; i < n; ++i) sorter_->push(keys[i]);
  }
  ExternalSorter<std::uint64_t>& sorted() { return sorter_->sort(), *sorter_; }

 private:
  std::mutex lock_;
  std::optional<ExternalSorter<std::uint64_t>> sorter_;
};

// The share's keys, in key order, each to the rank that holds its shard, in batches.
class KeySender {
 public:
  KeySender(const SolveState& s, const KeyRanges& ranges, KeyInbox& inbox)
      : s_(s), ranges_(ranges), inbox_(inbox), cluster_(*s.opt.cluster) {}
  void send(std::uint64_t key) {
    const unsigned shard = ranges_.shard_of(key);
    const unsigned rank = rank_of_shard(shard, s_.shards(), cluster_.ranks());
    if (rank != to_ || batch_.size() == kBatch) flush();
    if (batch_.empty()) to_ = rank, shard_ = shard;
    batch_.push_back(key);
  }
  void flush() {
    if (batch_.empty()) return;
    if (to_ == cluster_.rank())
      inbox_.push(batch_.data(), batch_.size());
    else
      cluster_.send(to_, shard_, batch_.data(), batch_.size() * sizeof(std::uint64_t));
    batch_.clear();
  }

 private:
  static constexpr std::size_t kBatch = 1u << 14;
  const SolveState& s_;
  const KeyRanges& ranges_;
  KeyInbox& inbox_;
  Cluster& cluster_;
  std::vector<std::uint64_t> batch_;
  unsigned to_ = 0, shard_ = 0;
};

// Every rank's share sent by key range; this rank's keys arrive in `inbox`.
void exchange_keys(const SolveState& s, const KeyRanges& ranges, const std::string& share,
                   KeyInbox& inbox) {
  Cluster& cluster = *s.opt.cluster;
  cluster.begin_exchange([&](unsigned, const void* data, std::size_t bytes) {
    inbox.push(static_cast<const std::uint64_t*>(data), bytes / sizeof(std::uint64_t));
  });
  KeySender sender(s, ranges, inbox);
  RunReader keys(share);
  Progress bar("enumerate: keys to their ranks", keys.size());
  const void* span;
  while (const std::size_t n = keys.next_span(&span, 1u << 16)) {
    for (std::size_t i = 0; i < n; ++i) sender.send(static_cast<const std::uint64_t*>(span)[i]);
    bar.add(n);
  }
  sender.flush();
  cluster.end_exchange();
  bar.finish();
}

// The states of this rank's shards, among `states` in all.
std::uint64_t own_states(const SolveState& s, std::uint64_t states) {
  return first_state(states, s.shards(), s.shard_ids.back() + 1) -
         first_state(states, s.shards(), s.shard_ids.front());
}

void refuse_a_tier_over_the_limit(const SolveState& s, std::uint64_t states) {
  if (s.opt.max_states != 0 && states > s.opt.max_states)
    throw std::invalid_argument(s.game.name() + " tier " + s.opt.tier + ": " +
                                std::to_string(states) + " states, more than --max-states " +
                                std::to_string(s.opt.max_states));
}

// The shards' key ranges, those of the single process, from every rank's sorted share; `states`
// the tier's count.
KeyRanges split_shares(const SolveState& s, const std::string& share, std::uint64_t& states) {
  KeyCounter counter(share);
  states = s.total(counter.size());
  refuse_a_tier_over_the_limit(s, states);
  return select_key_ranges(states, s.shards(),
                           [&](std::uint64_t key) { return s.total(counter.at_or_below(key)); });
}

}  // namespace

void enumerate_own_keys(SolveState& s, bool needed) {
  if (s.least(needed ? 0 : 1) == 1) return;  // every rank has its keys
  const std::string share = s.files.path(Run::share_keys);
  enumerate_share(s, share);
  std::uint64_t states = 0;
  const KeyRanges ranges = split_shares(s, share, states);
  KeyInbox inbox(s, needed);
  exchange_keys(s, ranges, share, inbox);
  s.files.remove(Run::share_keys);
  if (!needed) return;
  const RunInfo keys = write_unique_keys(s, inbox.sorted(), s.files.path(Run::keys));
  if (keys.record_count != own_states(s, states))
    throw std::logic_error(s.game.name() + ": this rank received " +
                           std::to_string(keys.record_count) + " keys, not its " +
                           std::to_string(own_states(s, states)));
  s.record(Stage::enumerate(), {keys},
           {{"states", states}, {"shard_first_keys", ranges.first_keys()}});
}

}  // namespace zermelo::retro
