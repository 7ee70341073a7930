// Step 5b: the sorted messages merge-joined into S_d, writing S_{d+1} (still undecided) and
// F_{d+1} (decided in d+1 plies). A state wins as soon as one child is lost, and loses when its
// last pending child turns out won. A block of states that no message reaches is copied as
// stored, neither decompressed nor compressed again: late levels reach few blocks, and the
// undecided run is mostly draws.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

class Merge {
 public:
  Merge(SolveState& s, unsigned shard, std::uint32_t d, ExternalSorter<Msg>& msgs, RunReader& in,
        RunWriter& out, RunWriter& next_frontier)
      : s_(s),
        d_(d),
        msgs_(msgs),
        in_(in),
        out_(out),
        next_f_(next_frontier),
        copy_blocks_(out.can_take_blocks_of(in.info())),
        bar_("level " + std::to_string(d) + " merge", in.size()) {
    has_m_ = msgs_.next(m_);
    const unsigned id = s.shard_ids[shard];
    if (s.filter) filter_.emplace(*s.filter, id > 0, id + 1 < s.shards());
  }

  MergeCounts run() {
    const void* span;
    for (;;) {
      copy_untouched_blocks();
      const std::size_t n = in_.next_span(&span, 1u << 16);
      if (n == 0) break;
      merge_span(static_cast<const Undecided*>(span), n);
      bar_.add(n);
    }
    if (filter_) filter_->end_of_run();
    bar_.finish();
    return c_;
  }

 private:
  // Blocks ahead that no message reaches, copied as stored.
  void copy_untouched_blocks() {
    const auto& blocks = in_.info().blocks;
    while (copy_blocks_ && in_.at_block_end() && in_.next_block_index() < blocks.size()) {
      const std::size_t b = in_.next_block_index();
      const std::uint64_t end = b + 1 < blocks.size() ? blocks[b + 1].first_key : ~0ull;
      while (has_m_ && m_.key() < blocks[b].first_key) has_m_ = msgs_.next(m_);  // to decided
      in_.will_copy_blocks_below(has_m_ ? std::optional<std::uint64_t>(m_.key())
                                        : std::nullopt);  // not decoded ahead
      if (has_m_ && m_.key() < end) return;
      // Copying ends the block being filled; under half full, decode instead (blocks stay large).
      if (out_.pending_records() != 0 && out_.pending_records() < out_.block_records() / 2) return;
      in_.read_stored_block(stored_);
      out_.append_stored_block(blocks[b], stored_);
      if (filter_) filter_->copied_block(blocks[b].first_key);
      const std::uint64_t records = blocks[b].raw_bytes / sizeof(Undecided);
      c_.copied += records;
      bar_.add(records);
    }
  }

  // Decoded states: those no message reaches are appended in runs, the others one by one.
  void merge_span(const Undecided* states, std::size_t n) {
    std::size_t unchanged_from = 0;  // states[unchanged_from, i) got no message
    for (std::size_t i = 0; i < n; ++i) {
      const Received r = receive(states[i].key);
      if (!r.lost_child && r.won_children == 0) {
        if (filter_) filter_->state(states[i].key, true);
        continue;
      }
      out_.append_many(states + unchanged_from, i - unchanged_from);
      unchanged_from = i + 1;
      decide(states[i], r);
    }
    out_.append_many(states + unchanged_from, n - unchanged_from);
  }

  struct Received {
    bool lost_child = false;
    std::uint32_t won_children = 0;
  };

  // The messages to `key`; those to decided states and outside the tier before it are skipped.
  Received receive(StateKey key) {
    while (has_m_ && m_.key() < key) has_m_ = msgs_.next(m_);
    Received r;
    for (; has_m_ && m_.key() == key; has_m_ = msgs_.next(m_)) {
      if (m_.child_lost())
        r.lost_child = true;
      else
        ++r.won_children;
      ++c_.delivered;
    }
    return r;
  }

  // u decided (into F_{d+1}) or passed on to S_{d+1} with fewer children pending.
  void decide(Undecided u, const Received& r) {
    if (r.won_children > u.pending)
      throw std::logic_error(s_.game.name() + ": more won children than moves at state " +
                             std::to_string(u.key));
    u.pending -= r.won_children;
    const Value v = r.lost_child     ? Value::win(d_ + 1)
                    : u.pending == 0 ? Value::loss(d_ + 1)
                                     : Value::unknown();
    if (v.is_known())
      next_f_.push(KeyValue{u.key, v.raw()}), ++c_.decided;
    else
      out_.push(u);
    if (filter_) filter_->state(u.key, !v.is_known());
  }

  SolveState& s_;
  const std::uint32_t d_;
  ExternalSorter<Msg>& msgs_;
  RunReader& in_;
  RunWriter &out_, &next_f_;
  const bool copy_blocks_;
  Progress bar_;
  Msg m_;
  bool has_m_ = false;
  std::vector<std::byte> stored_;
  MergeCounts c_;
  std::optional<UndecidedFilter::Report> filter_;  // told of every state's fate
};

}  // namespace

MergeCounts merge_messages(SolveState& s, unsigned shard, std::uint32_t d,
                           ExternalSorter<Msg>& msgs, RunReader& in, RunWriter& out,
                           RunWriter& next_frontier) {
  return Merge(s, shard, d, msgs, in, out, next_frontier).run();
}

}  // namespace zermelo::retro
