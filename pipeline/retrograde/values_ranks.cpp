// Step 6 across MPI ranks: the values run written in parts, one a rank, joined by rank 0 without
// decompressing (docs/distributed.md, docs/shards.md).
//
// Why: rank 0 writes the one values run, and streaming it every other rank's raw values (10
// bytes a state) through its one link took longer than the levels on a large cluster. The run is
// cut into blocks at fixed global record indices (every `block_records()`), so a rank can write
// the blocks that start in its range itself, compressed exactly as the single process would:
// 1. each rank merges its values; the few that end a block begun by an earlier rank (fewer than a
//    block) go to that rank in one message, and the rank appends those it receives;
// 2. every rank > 0 streams its part's stored blocks to rank 0 (with its tally of the values),
//    which appends them after its own: a copy, no zstd. The run is the single process's, byte
//    for byte, and its digest too.
// A kill anywhere in it makes step 6 run again on every rank (resume.cpp): the parts are
// rewritten, and the values run is made under a temporary name until it is whole.
#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "zermelo/engine/cluster.hpp"
#include "zermelo/engine/values_run.hpp"

namespace zermelo::retro {
namespace {

// The global index of every rank's first value (the first of its first shard), and the tier's
// count last.
std::vector<std::uint64_t> rank_firsts(const SolveState& s, std::uint64_t states) {
  const unsigned ranks = s.opt.cluster->ranks();
  std::vector<std::uint64_t> first(ranks + 1, states);
  for (unsigned shard = s.shards(); shard-- > 0;)
    first[rank_of_shard(shard, s.shards(), ranks)] = first_state(states, s.shards(), shard);
  return first;
}

// The rank whose range holds global record `record` (a block's first: the block's writer).
unsigned owner_of(const std::vector<std::uint64_t>& firsts, std::uint64_t record) {
  unsigned r = 0;
  while (r + 2 < firsts.size() && firsts[r + 1] <= record) ++r;
  return r;
}

// The tier's states: recorded by step 3; counted again for a job begun before it recorded them.
std::uint64_t tier_states(const SolveState& s, std::uint32_t last) {
  const nlohmann::json scan = s.facts(Stage::scan());
  if (scan.contains("tier_states")) return scan["tier_states"];
  std::uint64_t n = 0;
  merge_values(s, last, [&](const KeyValue&) { ++n; });
  return s.total(n);
}

// This rank's part, into `out`: its values but the head that ends an earlier rank's block, which
// goes to that rank, and after them the heads of later ranks that end its own last block.
void write_part(SolveState& s, std::uint32_t last, RunWriter& out, ValuesTally& tally) {
  Cluster& cluster = *s.opt.cluster;
  const std::vector<std::uint64_t> firsts = rank_firsts(s, tier_states(s, last));
  const std::uint64_t first = firsts[cluster.rank()], end = firsts[cluster.rank() + 1];
  const std::uint64_t block = out.block_records();
  const std::uint64_t head = std::min(end, (first + block - 1) / block * block) - first;
  std::vector<KeyValue> heads;
  merge_values(s, last, [&](const KeyValue& kv) {
    tally.add(kv.key, Value::from_raw(kv.value));
    if (heads.size() < head)
      heads.push_back(kv);
    else
      out.push(kv);
  });
  std::map<unsigned, std::vector<std::byte>> later;  // by the sender's first shard: key order
  cluster.begin_exchange([&](unsigned shard, const void* data, std::size_t bytes) {
    const auto* p = static_cast<const std::byte*>(data);
    later[shard].assign(p, p + bytes);
  });
  if (!heads.empty())
    cluster.send(owner_of(firsts, first / block * block), s.shard_ids.front(), heads.data(),
                 heads.size() * sizeof(KeyValue));
  cluster.end_exchange();
  for (const auto& [shard, bytes] : later)
    out.append_many(bytes.data(), bytes.size() / sizeof(KeyValue));
}

// A block of a part as one message: its index entry, then its stored bytes.
void send_blocks_to_root(Cluster& cluster, const std::string& part, const ValuesTally& tally) {
  nlohmann::json counts = final_facts(tally.result());
  counts["levels"] = 0, counts["digest"] = "";
  const std::string text = counts.dump();
  cluster.send_to_root(text.data(), text.size());
  RunReader in(part);
  std::vector<std::byte> stored, message;
  for (std::size_t b = in.next_block_index(); b < in.info().blocks.size();
       b = in.next_block_index()) {
    const BlockInfo info = in.info().blocks[b];
    in.read_stored_block(stored);
    if (info.raw_bytes == 0) continue;  // an empty part's one block
    message.resize(sizeof info + stored.size());
    std::memcpy(message.data(), &info, sizeof info);
    std::memcpy(message.data() + sizeof info, stored.data(), stored.size());
    cluster.send_to_root(message.data(), message.size());
  }
  cluster.send_to_root(nullptr, 0);
}

// Rank 0: the other ranks' tallies and blocks, in rank order, after its own part in `out`.
void join_parts(Cluster& cluster, RunWriter& out, ValuesTally& tally) {
  std::vector<std::byte> message, stored;
  for (unsigned from = 1; from < cluster.ranks(); ++from) {
    if (!cluster.receive_from(from, message)) throw std::logic_error("a rank sent no tally");
    const std::string text(reinterpret_cast<const char*>(message.data()), message.size());
    tally.add_later(result_from_final(nlohmann::json::parse(text), "", false));
    while (cluster.receive_from(from, message)) {
      if (out.pending_records() != 0)  // would cut a block where the single process does not
        throw std::logic_error("values blocks of rank " + std::to_string(from) + " out of place");
      BlockInfo info;
      std::memcpy(&info, message.data(), sizeof info);
      stored.assign(message.begin() + sizeof info, message.end());
      out.append_stored_block(info, stored);
    }
  }
}

}  // namespace

std::vector<RunInfo> write_values_across_ranks(SolveState& s, std::uint32_t last,
                                               ValuesTally& tally) {
  Cluster& cluster = *s.opt.cluster;
  if (cluster.rank() == 0) {
    RunWriter out(s.files.values(s.opt.tier), values_run_options());
    write_part(s, last, out, tally);
    join_parts(cluster, out, tally);
    return {out.finish()};
  }
  const std::string part = s.files.path(Run::values_part);
  {
    RunWriter out(part, values_run_options());
    write_part(s, last, out, tally);
    out.finish();
  }
  send_blocks_to_root(cluster, part, tally);
  s.files.remove(Run::values_part);
  return {};
}

}  // namespace zermelo::retro
