// The top-down pass of union, intersection and difference on external sets (ext_apply.hpp).
//
// Layer by layer: the requests for the layer (pairs of input states, each with the arc that asked
// for it) are sorted by pair; each distinct pair is a product state, numbered in that order, and
// the arcs into it are written (sorted by target, as the reduce wants them). The pairs, sorted by
// their first state, meet the first input's layer in one sequential read; sorted again by their
// second state, the second input's; then each character gives a child pair, a request for the
// next layer, unless the operation already knows it is dead.
#include <cstddef>
#include <filesystem>
#include <memory>

#include "ext_internal.hpp"

namespace zermelo::dfa {
namespace {

using ext::Arc;
using ext::Kids;

struct Request {  // the pair (a, b) of input states, asked for by product state src's child c
  std::uint32_t a, b, src, c;
};
struct RequestLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Request& x, const Request& y) const {
    return std::tie(x.a, x.b, x.src, x.c) < std::tie(y.a, y.b, y.src, y.c);
  }
};
template <unsigned N>
struct Half {  // product state p = (a, b), with a's children
  std::uint32_t b, p;
  Kids<N> akids;
};
template <unsigned N>
struct HalfLess {  // p is unique, so equal keys are equal records
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Half<N>& x, const Half<N>& y) const {
    return std::tie(x.b, x.p) < std::tie(y.b, y.p);
  }
};

}  // namespace
}  // namespace zermelo::dfa

// Radix layouts (radix_sort.hpp): the fields each comparator above compares, most
// significant first.
namespace zermelo {
template <>
struct RadixLayout<dfa::Request> {
  static constexpr std::array<RadixField, 4> fields{
      RadixField{offsetof(dfa::Request, a), 4}, RadixField{offsetof(dfa::Request, b), 4},
      RadixField{offsetof(dfa::Request, src), 4}, RadixField{offsetof(dfa::Request, c), 4}};
};
template <unsigned N>
struct RadixLayout<dfa::Half<N>> {
  static constexpr std::array<RadixField, 2> fields{RadixField{offsetof(dfa::Half<N>, b), 4},
                                                    RadixField{offsetof(dfa::Half<N>, p), 4}};
};
}  // namespace zermelo

namespace zermelo::dfa {
namespace {

// Whether op(a, b) is empty whatever lies below, from which of them are dead.
bool dead(ExtOp op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case ExtOp::kUnion:
      return a == 0 && b == 0;
    case ExtOp::kIntersect:
      return a == 0 || b == 0;
    case ExtOp::kMinus:
      return a == 0;
  }
  return true;
}

// Whether a string ending in the accepting states a, b (1) or the dead ones (0) is in op(a, b).
bool accepts(ExtOp op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case ExtOp::kUnion:
      return a != 0 || b != 0;
    case ExtOp::kIntersect:
      return a != 0 && b != 0;
    case ExtOp::kMinus:
      return a != 0 && b == 0;
  }
  return false;
}

// The children of state `index` (1-based; 0 = dead) of a layer read in order.
template <unsigned N>
class LayerCursor {
 public:
  LayerCursor(const ExtDfa& set, unsigned layer) : r_(set, layer) {}
  const Kids<N>& at(std::uint32_t index) {
    if (index == 0) return dead_;
    while (r_.index() < index)
      if (!r_.next(kids_.data())) throw ExtDfaError("external apply: state index past its layer");
    return kids_;
  }

 private:
  ExtLayerReader r_;
  Kids<N> kids_{}, dead_{};
};

template <unsigned N>
class Product {
 public:
  Product(ExtOp op, const ExtDfa& a, const ExtDfa& b, const ExtOptions& o)
      : op_(op), a_(a), b_(b), o_(o) {
    u_ = ext::start_product(o, a.alphabet);
  }

  const ext::Unreduced& run() {
    requests_ = std::make_unique<Requests>(ext::sort_options(o_, "requests", 3));
    const std::uint32_t ra = a_.empty() ? 0 : 1, rb = b_.empty() ? 0 : 1;
    if (!dead(op_, ra, rb)) requests_->push(Request{ra, rb, 0, 0});
    for (unsigned layer = 0; layer < u_.alphabet.size(); ++layer) {
      ext::sort_counted(*requests_, u_);
      Halves halves(ext::sort_options(o_, "halves", 3));
      expand_a(layer, halves);
      ext::sort_counted(halves, u_);
      expand_b(layer, halves);
    }
    return u_;
  }

 private:
  using Requests = ExternalSorter<Request, RequestLess>;
  using Halves = ExternalSorter<Half<N>, HalfLess<N>>;

  // Numbers the layer's product states, writes the arcs into them, looks up a's children.
  void expand_a(unsigned layer, Halves& halves) {
    std::unique_ptr<RunWriter> arcs = ext::arcs_into(u_, layer);
    LayerCursor<N> in(a_, layer);
    std::uint64_t p = 0;
    Request last{}, r{};
    while (requests_->next(r)) {
      if (p == 0 || r.a != last.a || r.b != last.b) {
        halves.push(Half<N>{r.b, ext::narrow_state(p++, "a product layer"), in.at(r.a)});
        last = r;
      }
      if (arcs) arcs->push(Arc{static_cast<std::uint32_t>(p - 1), r.src, r.c});
    }
    if (arcs) arcs->finish();
    requests_.reset();
    u_.states[layer] = p;
  }

  // Looks up b's children; each character's pair is a request for the next layer (or, on the
  // last, an arc to accept).
  void expand_b(unsigned layer, Halves& halves) {
    const bool last = layer + 1 == u_.alphabet.size();
    const std::unique_ptr<RunWriter> final_arcs = ext::layer_output(u_, o_, layer, requests_);
    LayerCursor<N> in(b_, layer);
    for (Half<N> h; halves.next(h);) {
      const Kids<N>& bkids = in.at(h.b);
      for (std::uint32_t c = 0; c < u_.alphabet[layer]; ++c) {
        if (last) {
          if (accepts(op_, h.akids[c], bkids[c])) final_arcs->push(Arc{1, h.p, c});
        } else if (!dead(op_, h.akids[c], bkids[c])) {
          requests_->push(Request{h.akids[c], bkids[c], h.p, c});
        }
      }
    }
    if (final_arcs) final_arcs->finish();
  }

  ExtOp op_;
  const ExtDfa &a_, &b_;
  ExtOptions o_;
  ext::Unreduced u_;
  std::unique_ptr<Requests> requests_;
};

void check_same_shape(const ExtDfa& a, const ExtDfa& b) {
  if (a.alphabet != b.alphabet)
    throw ExtDfaError(a.dir + ", " + b.dir + ": external sets of different strings");
}

}  // namespace

ExtDfa ext_apply(ExtOp op, const ExtDfa& a, const ExtDfa& b, const std::string& out_dir,
                 const ExtOptions& options, ExtStats* stats) {
  check_same_shape(a, b);
  ExtOptions o = options;
  o.scratch_dir = options.scratch_dir + "/apply";
  std::filesystem::create_directories(o.scratch_dir);
  ExtDfa result = ext::with_width(a.alphabet, [&](auto width) {
    Product<decltype(width)::value> product(op, a, b, o);
    const ext::Unreduced& u = product.run();
    return ext::reduce(u, out_dir, o, stats);
  });
  std::filesystem::remove_all(o.scratch_dir);
  return result;
}

}  // namespace zermelo::dfa
