// What the top-down passes of the external set operations (ext_apply.cpp) hand to the bottom-up
// reduce (ext_reduce.cpp): the unreduced product as runs of arcs, one a layer, and the helpers
// both sides share (sort options, the records' fixed widths).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/sort/external_sort.hpp"

namespace zermelo::dfa::ext {

// The radix layouts (radix_sort.hpp) of the two image passes' records (ext_image.cpp,
// ext_image_all.cpp): a lookup ordered by (state, p, j), a found by (p, j), 4-byte fields.
template <class L>
struct LookupRadixLayout {
  static constexpr std::array<RadixField, 3> fields{RadixField{offsetof(L, state), 4},
                                                    RadixField{offsetof(L, p), 4},
                                                    RadixField{offsetof(L, j), 4}};
};
template <class F>
struct FoundRadixLayout {
  static constexpr std::array<RadixField, 2> fields{RadixField{offsetof(F, p), 4},
                                                    RadixField{offsetof(F, j), 4}};
};

// From product state p of a layer by character c to product state q of the next (on the last
// layer q is 0 or 1: dead or accepting).
struct Arc {
  std::uint32_t q, p, c;
};

// The unreduced product: every state is reachable from the root, some are dead (no path to
// accept) and some are equal.
struct Unreduced {
  std::string dir;
  std::vector<unsigned> alphabet;
  std::vector<std::uint64_t> states;  // product states of each layer
  std::uint64_t spilled_runs = 0;     // by the pass's sorts (0: it all stayed in RAM)
  bool durable = false;               // the arc runs fsynced (ExtOptions::sync_scratch)
  // Arcs out of `layer`, sorted by q (the last layer's in any order; dead arcs may be left out).
  std::string arcs_path(unsigned layer) const {
    return dir + "/arcs-" + std::to_string(layer) + ".run";
  }
};

// An empty product in options.scratch_dir/product.
Unreduced start_product(const ExtOptions& options, const std::vector<unsigned>& alphabet);
// The writer of the arcs into `layer` (out of the layer above; none into layer 0).
std::unique_ptr<RunWriter> arcs_into(const Unreduced& product, unsigned layer);
std::unique_ptr<RunWriter> arcs_out_of(const Unreduced& product, unsigned layer);

// Ends a sort's input, counting what it spilled.
template <class T, class Less>
void sort_counted(ExternalSorter<T, Less>& sorter, Unreduced& product) {
  sorter.sort();
  product.spilled_runs += sorter.spilled_runs();
}

// The canonical external set of the product's language, and the pass's statistics (if asked).
ExtDfa reduce(const Unreduced& product, const std::string& out_dir, const ExtOptions& options,
              ExtStats* stats);

// Options for one of `share` sorts alive at once, spilling under dir/name.
SortOptions sort_options(const ExtOptions& options, const std::string& name, unsigned share);

// Where a pass writes what a layer's states expand to: on the last layer the arcs to accept (the
// writer returned), above it the requests of the next layer (a fresh sorter in `requests`).
template <class Requests>
std::unique_ptr<RunWriter> layer_output(const Unreduced& product, const ExtOptions& options,
                                        unsigned layer, std::unique_ptr<Requests>& requests) {
  if (layer + 1 == product.alphabet.size()) return arcs_out_of(product, layer);
  requests = std::make_unique<Requests>(sort_options(options, "requests", 3));
  return nullptr;
}

// A state's children as a fixed-width record: N = the widest alphabet rounded up to 4, 8, 16 or
// 32 (unused children stay 0), so the sorts see plain data of the size they need.
template <unsigned N>
using Kids = std::array<std::uint32_t, N>;

template <class F>
auto with_width(const std::vector<unsigned>& alphabet, F&& f) {
  unsigned widest = 0;
  for (unsigned a : alphabet) widest = std::max(widest, a);
  if (widest <= 4) return f(std::integral_constant<unsigned, 4>{});
  if (widest <= 8) return f(std::integral_constant<unsigned, 8>{});
  if (widest <= 16) return f(std::integral_constant<unsigned, 16>{});
  if (widest <= 32) return f(std::integral_constant<unsigned, 32>{});
  throw std::invalid_argument("external DFA sets: alphabets of more than 32 characters");
}

// A 32-bit state number, or an error naming what overflowed.
std::uint32_t narrow_state(std::uint64_t n, const char* what);

// The image passes' numbering of a layer: the requests, sorted, with equal members (r.m) one
// image state, numbered in order; writes the arcs into them and calls new_state(r, id) once a
// state. Returns the layer's state count.
template <class Request, class Requests, class NewState>
std::uint64_t number_requests(const Unreduced& u, unsigned layer, Requests& requests,
                              NewState&& new_state) {
  std::unique_ptr<RunWriter> arcs = arcs_into(u, layer);
  std::uint64_t p = 0;
  decltype(Request{}.m) last{};
  for (Request r; requests.next(r);) {
    if (p == 0 || r.m != last) {
      new_state(r, narrow_state(p++, "an image layer"));
      last = r.m;
    }
    if (arcs) arcs->push(Arc{static_cast<std::uint32_t>(p - 1), r.src, r.c});
  }
  if (arcs) arcs->finish();
  return p;
}

// The layer loop of the image passes: per layer, the requests (already pushed) are sorted and
// numbered (pass.number fills the lookups), the lookups sorted and met with the input's layer
// (pass.look_up fills the found), and the found sorted by image state and expanded into the next
// layer's requests (pass.expand).
template <class Lookups, class Founds, class Pass, class Requests>
void image_layers(Pass& pass, Unreduced& u, const ExtOptions& o, Requests& requests) {
  for (unsigned layer = 0; layer < u.alphabet.size(); ++layer) {
    sort_counted(*requests, u);
    Lookups lookups(sort_options(o, "lookups", 3));
    pass.number(layer, lookups);
    sort_counted(lookups, u);
    Founds found(sort_options(o, "found", 3));
    pass.look_up(layer, lookups, found);
    sort_counted(found, u);
    pass.expand(layer, found);
  }
}

// The image passes' look-up: the lookups, sorted by input state (l.state), met with the input's
// layer in one read; found(l, kids) gets each with its state's children.
template <unsigned N, class Lookup, class Lookups, class Found>
void join_layer(const ExtDfa& in, unsigned layer, Lookups& lookups, Found&& found) {
  ExtLayerReader reader(in, layer);
  Kids<N> kids{};
  for (Lookup l; lookups.next(l);) {
    while (reader.index() < l.state)
      if (!reader.next(kids.data())) throw ExtDfaError("external image: state past its layer");
    found(l, kids);
  }
}

}  // namespace zermelo::dfa::ext
