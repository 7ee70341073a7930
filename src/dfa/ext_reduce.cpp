// The bottom-up reduce of the external set operations (ext_internal.hpp): from the last layer
// up, each product state's children are renamed to the canonical numbers of the layer below
// (a merge of the arcs, sorted by target, with that layer's numbering, sorted by product state),
// gathered by state (a sort by source), and the states sorted by their children: equal ones
// merge, dead ones (no live child) vanish, and the rank is the canonical number save_ext gives.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "ext_internal.hpp"

namespace zermelo::dfa::ext {
namespace {

struct Edge {  // product state p's child by c is canonical state k of the layer below
  std::uint32_t p, c, k;
};
struct EdgeLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Edge& x, const Edge& y) const {
    return std::tie(x.p, x.c, x.k) < std::tie(y.p, y.c, y.k);
  }
};
template <unsigned N>
struct Tuple {  // product state p with its canonical children
  Kids<N> kids;
  std::uint32_t p;
};
template <unsigned N>
struct TupleLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Tuple<N>& x, const Tuple<N>& y) const {
    return std::tie(x.kids, x.p) < std::tie(y.kids, y.p);
  }
};
struct Number {  // product state p is canonical state k (k > 0: dead states are left out)
  std::uint32_t p, k;
};
struct NumberLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Number& x, const Number& y) const {
    return std::tie(x.p, x.k) < std::tie(y.p, y.k);
  }
};

}  // namespace
}  // namespace zermelo::dfa::ext

// Radix layouts (radix_sort.hpp): the fields each comparator above compares, most
// significant first.
namespace zermelo {
template <>
struct RadixLayout<dfa::ext::Edge> {
  static constexpr std::array<RadixField, 3> fields{RadixField{offsetof(dfa::ext::Edge, p), 4},
                                                    RadixField{offsetof(dfa::ext::Edge, c), 4},
                                                    RadixField{offsetof(dfa::ext::Edge, k), 4}};
};
// The children, then p: records of up to seven children (wider ones are sorted by std::sort).
template <unsigned N>
struct RadixLayout<dfa::ext::Tuple<N>> {
  static constexpr auto fields = [] {
    std::array<RadixField, N + 1> f{};
    for (unsigned i = 0; i < N; ++i)
      f[i] = RadixField{static_cast<std::uint32_t>(offsetof(dfa::ext::Tuple<N>, kids) + 4 * i), 4};
    f[N] = RadixField{offsetof(dfa::ext::Tuple<N>, p), 4};
    return f;
  }();
};
template <>
struct RadixLayout<dfa::ext::Number> {
  static constexpr std::array<RadixField, 2> fields{RadixField{offsetof(dfa::ext::Number, p), 4},
                                                    RadixField{offsetof(dfa::ext::Number, k), 4}};
};
}  // namespace zermelo

namespace zermelo::dfa::ext {
namespace {

template <unsigned N>
class Reducer {
 public:
  Reducer(const Unreduced& u, const std::string& out_dir, const ExtOptions& o)
      : u_(u), o_(o), out_(out_dir, u.alphabet, o.durable_result) {}

  ExtDfa run() {
    for (auto layer = static_cast<unsigned>(u_.alphabet.size()); layer-- > 0;) {
      ExternalSorter<Edge, EdgeLess> edges(sort_options(o_, "edges", 3));
      rename(layer, edges);
      edges.sort();
      spilled_ += edges.spilled_runs();
      ExternalSorter<Tuple<N>, TupleLess<N>> tuples(sort_options(o_, "tuples", 3));
      gather(edges, tuples);
      tuples.sort();
      spilled_ += tuples.spilled_runs();
      number(layer, tuples);
    }
    return out_.finish();
  }
  std::uint64_t spilled_runs() const { return spilled_; }

 private:
  using Numbers = ExternalSorter<Number, NumberLess>;

  // The arcs out of `layer` with their targets' canonical numbers (dead targets dropped).
  void rename(unsigned layer, ExternalSorter<Edge, EdgeLess>& edges) {
    RunReader arcs(u_.arcs_path(layer));
    const bool last = layer + 1 == u_.alphabet.size();
    Number n{0, 0};
    bool have = numbers_ && numbers_->next(n);
    for (Arc a; arcs.next(a);) {
      if (!last) {
        while (have && n.p < a.q) have = numbers_->next(n);
        a.q = have && n.p == a.q ? n.k : 0;
      }
      if (a.q != 0) edges.push(Edge{a.p, a.c, a.q});
    }
    numbers_.reset();
  }

  // One record a live product state: its children, by state.
  void gather(ExternalSorter<Edge, EdgeLess>& edges, ExternalSorter<Tuple<N>, TupleLess<N>>& out) {
    Tuple<N> t{};
    bool open = false;
    for (Edge e; edges.next(e);) {
      if (open && e.p != t.p) out.push(t), t = Tuple<N>{};
      t.p = e.p;
      t.kids[e.c] = e.k;
      open = true;
    }
    if (open) out.push(t);
  }

  // Distinct children in order are the layer's canonical states; each product state gets its
  // rank, sorted by product state for the layer above.
  void number(unsigned layer, ExternalSorter<Tuple<N>, TupleLess<N>>& tuples) {
    numbers_ = std::make_unique<Numbers>(sort_options(o_, "numbers", 3));
    out_.begin_layer(layer);
    Kids<N> last{};
    std::uint64_t k = 0;
    for (Tuple<N> t; tuples.next(t);) {
      if (k == 0 || t.kids != last) {
        out_.push(t.kids.data());
        last = t.kids;
        ++k;
      }
      numbers_->push(Number{t.p, narrow_state(k, "a layer's states")});
    }
    out_.end_layer();
    if (layer == 0 && k > 1) throw std::logic_error("external reduce: more than one root");
    numbers_->sort();
    spilled_ += numbers_->spilled_runs();
  }

  const Unreduced& u_;
  ExtOptions o_;
  ExtDfaWriter out_;
  std::unique_ptr<Numbers> numbers_;  // the layer below's, by product state
  std::uint64_t spilled_ = 0;
};

}  // namespace

namespace {
RunOptions arc_run_options() {
  RunOptions o;
  o.record_size = sizeof(Arc);
  o.record_type = "zermelo.dfa_arc";
  o.sort_key = "q asc";
  o.block_bytes = 1u << 20;
  return o;
}
}  // namespace

SortOptions sort_options(const ExtOptions& options, const std::string& name, unsigned share) {
  SortOptions s;
  s.scratch_dir = options.scratch_dir + "/sort-" + name;
  s.memory_bytes = options.memory_bytes / share;
  s.threads = std::max(1u, options.threads);
  s.run.durable = options.sync_scratch;
  // Two threads spill a full buffer as two runs written at once: the sorter budgets one writer,
  // the second one's buffers come off here.
  if (s.threads >= 2) {
    RunOptions w = s.run;
    w.block_bytes = std::min<std::uint32_t>(w.block_bytes, 1u << 20);
    s.memory_bytes -= std::min<std::uint64_t>(s.memory_bytes / 2, RunWriter::memory_bytes(w));
  }
  return s;
}

std::uint32_t narrow_state(std::uint64_t n, const char* what) {
  if (n >= 0xFFFFFFFFull)
    throw std::length_error(std::string("external DFA sets: too many states in ") + what);
  return static_cast<std::uint32_t>(n);
}

ExtDfa reduce(const Unreduced& product, const std::string& out_dir, const ExtOptions& options,
              ExtStats* stats) {
  return with_width(product.alphabet, [&](auto width) {
    Reducer<decltype(width)::value> r(product, out_dir, options);
    ExtDfa result = r.run();
    if (stats) {
      stats->product_states = 0;
      for (auto s : product.states) stats->product_states += s;
      stats->result_states = result.total_states();
      stats->spilled_runs = product.spilled_runs + r.spilled_runs();
    }
    return result;
  });
}

Unreduced start_product(const ExtOptions& options, const std::vector<unsigned>& alphabet) {
  Unreduced u;
  u.dir = options.scratch_dir + "/product";
  u.alphabet = alphabet;
  u.states.assign(alphabet.size(), 0);
  u.durable = options.sync_scratch;
  std::filesystem::create_directories(u.dir);
  return u;
}

std::unique_ptr<RunWriter> arcs_into(const Unreduced& product, unsigned layer) {
  if (layer == 0) return nullptr;
  return arcs_out_of(product, layer - 1);
}

std::unique_ptr<RunWriter> arcs_out_of(const Unreduced& product, unsigned layer) {
  RunOptions o = arc_run_options();
  o.durable = product.durable;
  return std::make_unique<RunWriter>(product.arcs_path(layer), o);
}

}  // namespace zermelo::dfa::ext
