// Step 1 of the breadth-first search over all states across MPI ranks (bfs_rank_shares.hpp).
#include "pipeline/bfs_rank_shares.hpp"

#include <filesystem>
#include <stdexcept>

#include "pipeline/bfs_runs.hpp"
#include "pipeline/retrograde/cluster_transport.hpp"
#include "pipeline/retrograde/key_select.hpp"
#include "pipeline/retrograde/parts_walk.hpp"
#include "pipeline/retrograde/shard_inboxes.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::bfs {
namespace {

using KeyInboxes = retro::InboxesOf<StateKey>;

class OwnShards {
 public:
  OwnShards(const StatesEnumeration& enumeration, Manifest& manifest, Shards& shards,
            unsigned threads)
      : enumeration_(enumeration), manifest_(manifest), shards_(shards), threads_(threads) {}

  void run(const std::vector<SortOptions>& inbox_options) {
    const bool needed = !manifest_.done("shards");
    if (shards_.least(needed ? 0 : 1) == 1) return read_ranges();  // every rank has them
    const std::string share = manifest_.path("states-share.run");
    enumeration_.write(share, [&](const Tier& t) { return share_of(t); });
    const std::uint64_t states = select_ranges(share);
    KeyInboxes inboxes(shards_.ids(), inbox_options, threads_);
    send_share(share, inboxes);
    std::filesystem::remove(share);
    if (!needed) return read_ranges();
    inboxes.sort();
    const std::vector<RunInfo> cut = write_own_shards(inboxes);
    check_own_count(records(cut), states);
    manifest_.record("shards", cut,
                     {{"first_keys", shards_.ranges().first_keys()}, {"states", states}});
  }

 private:
  void read_ranges() { shards_.read_ranges(manifest_.facts("shards")); }

  // This rank's share of tier `t`: parts [r·K/N, (r+1)·K/N) of its K, on the rank's threads and
  // handed on in part order; a tier without parts is walked whole, every N-th state kept.
  retro::StateWalk share_of(const Tier& t) const {
    const Game& game = enumeration_.game();
    const unsigned rank = shards_.cluster()->rank(), ranks = shards_.cluster()->ranks();
    const std::uint64_t parts = game.enumeration_parts(t.name);
    if (parts > 1)
      return retro::parts_walk(game, t.name, parts * rank / ranks, parts * (rank + 1) / ranks,
                               threads_);
    return [&game, tier = t.name, rank, ranks](const retro::EmitKey& emit) {
      std::uint64_t i = 0;
      game.enumerate(tier, [&](StateKey k) {
        if (i++ % ranks == rank) emit(k);
      });
    };
  }

  // The shards' ranges, the single process's, from every rank's sorted share; returns the states
  // of all the shares.
  std::uint64_t select_ranges(const std::string& share) {
    retro::KeyCounter counter(share);
    const std::uint64_t states = shards_.total(counter.size());
    shards_.set_ranges(retro::select_key_ranges(states, shards_.count(), [&](StateKey key) {
      return shards_.total(counter.at_or_below(key));
    }));
    return states;
  }

  // The sorted share's keys, each to the inbox of the shard that owns it, here or on its rank.
  void send_share(const std::string& share, KeyInboxes& inboxes) {
    retro::ClusterTransportOf<StateKey> transport(*shards_.cluster(), shards_.count(), inboxes);
    {
      retro::RouterOf<StateKey> out(shards_.ranges(), transport);
      RunReader keys(share, IoOptions{}, /*decode_ahead=*/true);
      Progress bar("enumerate: states to their ranks", keys.size());
      const void* span;
      while (const std::size_t n = keys.next_span(&span, 1u << 16)) {
        for (std::size_t i = 0; i < n; ++i) out.send(static_cast<const StateKey*>(span)[i]);
        bar.add(n);
      }
      out.flush();
    }
    transport.finish();
  }

  // Each local shard's sorted keys, its U_0, the shards at once.
  std::vector<RunInfo> write_own_shards(KeyInboxes& inboxes) {
    std::vector<RunInfo> cut(shards_.local_count());
    shards_.for_each(threads_, [&](unsigned local) {
      RunWriter out(shards_.path(local, unvisited_name(0)), key_run(enumeration_.block_bytes()));
      write_sorted(enumeration_.game(), inboxes.of(local), out);
      cut[local] = out.finish();
    });
    return cut;
  }

  // The states this rank's shards received are theirs among `states` in all.
  void check_own_count(std::uint64_t received, std::uint64_t states) const {
    const std::uint64_t own =
        retro::first_state(states, shards_.count(), shards_.ids().back() + 1) -
        retro::first_state(states, shards_.count(), shards_.ids().front());
    if (received != own)
      throw std::logic_error(enumeration_.game().name() + ": this rank's shards received " +
                             std::to_string(received) + " states, not their " +
                             std::to_string(own) + " (a state enumerated by two ranks?)");
  }

  const StatesEnumeration& enumeration_;
  Manifest& manifest_;
  Shards& shards_;
  unsigned threads_;
};

}  // namespace

void enumerate_own_shards(const StatesEnumeration& enumeration, Manifest& manifest, Shards& shards,
                          const std::vector<SortOptions>& inboxes, unsigned threads) {
  OwnShards(enumeration, manifest, shards, threads).run(inboxes);
}

}  // namespace zermelo::bfs
