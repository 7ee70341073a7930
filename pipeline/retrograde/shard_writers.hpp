// One run a shard, each record written to the shard that owns its key (docs/shards.md); records
// of shards another process holds are skipped (it writes them itself).
//
// Why: step 3 cuts the initial scan's joined outputs (S_0, the scheduled work, the reverse edges)
// by key range into the shards' folders. With one shard it is a single writer of the job
// directory's run, as an unsharded solve always wrote it.
#pragma once
#include <memory>
#include <vector>

#include "pipeline/retrograde/state.hpp"

namespace zermelo::retro {

template <class R>
class ShardWriters {
 public:
  ShardWriters(const SolveState& s, Run run, const RunOptions& options) : s_(s) {
    for (const Layout& files : s.shard_files)
      out_.push_back(std::make_unique<RunWriter>(files.path(run), options));
  }
  void push(std::uint64_t key, const R& r) {
    const unsigned to = local_of(key);
    if (to < out_.size()) out_[to]->push(r);
  }
  // Records in key order, each shard's stretch of them appended at once.
  template <class KeyOf>
  void append_sorted(const R* recs, std::size_t n, KeyOf key_of) {
    for (std::size_t i = 0; i < n;) {
      const unsigned to = local_of(key_of(recs[i]));
      std::size_t j = i + 1;
      while (j < n && (s_.shards() == 1 || local_of(key_of(recs[j])) == to)) ++j;
      if (to < out_.size()) out_[to]->append_many(recs + i, j - i);
      i = j;
    }
  }
  std::vector<RunInfo> finish() {
    std::vector<RunInfo> infos;
    for (auto& w : out_) infos.push_back(w->finish());
    return infos;
  }

 private:
  // The local index of the shard that owns `key`; out_.size() for a shard another process holds.
  unsigned local_of(std::uint64_t key) const {
    return s_.shards() == 1 ? 0 : s_.local_index(s_.ranges.shard_of(key));
  }

  const SolveState& s_;
  std::vector<std::unique_ptr<RunWriter>> out_;
};

// Every record of a sorted stream written to its shard's `run`.
template <class R, class KeyOf>
std::vector<RunInfo> write_to_shards(const SolveState& s, ExternalSorter<R>& sorted, Run run,
                                     KeyOf key_of) {
  ShardWriters<R> out(s, run, run_options<R>());
  R r;
  while (sorted.next(r)) out.push(key_of(r), r);
  return out.finish();
}

}  // namespace zermelo::retro
