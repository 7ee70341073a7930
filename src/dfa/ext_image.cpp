// The top-down pass of a move image on an external set (ext_image.hpp).
//
// An image state is a set of up to kExtImageWidth input states of its layer (their union).
// Layer by layer: the requests (sets, each with the arc that asked for it) are sorted, each
// distinct set is an image state; its members are looked up in the input's layer in state order
// (a sort by member), gathered back by image state (a sort by state), and each character's
// children, relabelled where the change touches the layer, form the next layer's requests.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "ext_internal.hpp"
#include "zermelo/dfa/ext_image.hpp"

namespace zermelo::dfa {
namespace {

using ext::Arc;
using ext::Kids;
constexpr unsigned S = kExtImageWidth;
using Members = std::array<std::uint32_t, S>;  // ascending, then zeros

static_assert(kExtImageWidth == 4, "the Request radix layout lists four members");
struct Request {
  Members m;
  std::uint32_t src, c;
};
struct RequestLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Request& x, const Request& y) const {
    return std::tie(x.m, x.src, x.c) < std::tie(y.m, y.src, y.c);
  }
};
struct Lookup {  // member j of image state p is input state `state`
  std::uint32_t state, p, j;
};
struct LookupLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Lookup& x, const Lookup& y) const {
    return std::tie(x.state, x.p, x.j) < std::tie(y.state, y.p, y.j);
  }
};
template <unsigned N>
struct Found {  // member j of image state p has these children
  std::uint32_t p, j;
  Kids<N> kids;
};
template <unsigned N>
struct FoundLess {                                    // (p, j) is unique
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Found<N>& x, const Found<N>& y) const {
    return std::tie(x.p, x.j) < std::tie(y.p, y.j);
  }
};

}  // namespace
}  // namespace zermelo::dfa

// Radix layouts (radix_sort.hpp): the fields each comparator above compares, most
// significant first.
namespace zermelo {
template <>
struct RadixLayout<dfa::Request> {
  static constexpr std::array<RadixField, 6> fields{
      RadixField{offsetof(dfa::Request, m), 4},     RadixField{offsetof(dfa::Request, m) + 4, 4},
      RadixField{offsetof(dfa::Request, m) + 8, 4}, RadixField{offsetof(dfa::Request, m) + 12, 4},
      RadixField{offsetof(dfa::Request, src), 4},   RadixField{offsetof(dfa::Request, c), 4}};
};
template <>
struct RadixLayout<dfa::Lookup> : dfa::ext::LookupRadixLayout<dfa::Lookup> {};
template <unsigned N>
struct RadixLayout<dfa::Found<N>> : dfa::ext::FoundRadixLayout<dfa::Found<N>> {};
}  // namespace zermelo

namespace zermelo::dfa {
namespace {

// Adds a (non-dead) state to a member set.
void add_member(Members& m, std::uint32_t state) {
  if (state == 0) return;
  unsigned n = 0;
  while (n < S && m[n] != 0 && m[n] != state) ++n;
  if (n < S && m[n] == state) return;
  if (n == S) throw std::length_error("external image: a state unites more than 4 input states");
  m[n] = state;
  std::sort(m.begin(), m.begin() + n + 1);
}

// For each layer, the (before, after) pairs of the change there, or none (characters kept).
std::vector<std::vector<std::pair<std::uint8_t, std::uint8_t>>> pairs_by_layer(
    const Change& change, unsigned length, std::vector<bool>& touched) {
  std::vector<std::vector<std::pair<std::uint8_t, std::uint8_t>>> pairs(length);
  touched.assign(length, false);
  for (const Relabel& r : change.relabels) {
    if (r.position >= length) throw std::invalid_argument("external image: relabel past the end");
    pairs[r.position].insert(pairs[r.position].end(), r.pairs.begin(), r.pairs.end());
    touched[r.position] = true;
  }
  return pairs;
}

template <unsigned N>
class Image {
 public:
  Image(const ExtDfa& in, const Change& change, const ExtOptions& o) : in_(in), o_(o) {
    pairs_ = pairs_by_layer(change, in.length(), touched_);
    u_ = ext::start_product(o, in.alphabet);
  }

  const ext::Unreduced& run() {
    requests_ = std::make_unique<Requests>(ext::sort_options(o_, "requests", 3));
    if (!in_.empty()) requests_->push(Request{Members{1}, 0, 0});
    ext::image_layers<Lookups, Founds>(*this, u_, o_, requests_);
    return u_;
  }

  using Requests = ExternalSorter<Request, RequestLess>;
  using Lookups = ExternalSorter<Lookup, LookupLess>;
  static_assert(Lookups::uses_radix_sort(), "the largest sort of the image (a profile's half)");
  using Founds = ExternalSorter<Found<N>, FoundLess<N>>;

  // Numbers the layer's image states, writes the arcs into them, asks for their members.
  void number(unsigned layer, Lookups& lookups) {
    u_.states[layer] =
        ext::number_requests<Request>(u_, layer, *requests_, [&](const Request& r, auto id) {
          for (std::uint32_t j = 0; j < S && r.m[j] != 0; ++j) lookups.push(Lookup{r.m[j], id, j});
        });
    requests_.reset();
  }

  void look_up(unsigned layer, Lookups& lookups, Founds& found) {
    ext::join_layer<N, Lookup>(in_, layer, lookups, [&](const Lookup& l, const Kids<N>& kids) {
      found.push(Found<N>{l.p, l.j, kids});
    });
  }

  // Each image state's children: per character, the union of its members' children (through
  // the relabel where the change touches this layer).
  void expand(unsigned layer, Founds& found) {
    const bool last = layer + 1 == u_.alphabet.size();
    const std::unique_ptr<RunWriter> final_arcs = ext::layer_output(u_, o_, layer, requests_);
    std::vector<Members> out(u_.alphabet[layer]);
    auto flush = [&](std::uint32_t p) {
      for (std::uint32_t c = 0; c < out.size(); ++c) {
        if (out[c][0] == 0) continue;
        if (last)
          final_arcs->push(Arc{1, p, c});
        else
          requests_->push(Request{out[c], p, c});
      }
      std::fill(out.begin(), out.end(), Members{});
    };
    bool open = false;
    std::uint32_t p = 0;
    for (Found<N> f; found.next(f);) {
      if (open && f.p != p) flush(p);
      p = f.p, open = true;
      if (!touched_[layer]) {
        for (std::uint32_t c = 0; c < out.size(); ++c) add_member(out[c], f.kids[c]);
      } else {
        for (auto [before, after] : pairs_[layer]) add_member(out[after], f.kids[before]);
      }
    }
    if (open) flush(p);
    if (final_arcs) final_arcs->finish();
  }

 private:
  const ExtDfa& in_;
  ExtOptions o_;
  std::vector<std::vector<std::pair<std::uint8_t, std::uint8_t>>> pairs_;
  std::vector<bool> touched_;
  ext::Unreduced u_;
  std::unique_ptr<Requests> requests_;
};

}  // namespace

ExtDfa ext_change(const ExtDfa& set, const Change& change, const std::string& out_dir,
                  const ExtOptions& options, ExtStats* stats) {
  ExtOptions o = options;
  o.scratch_dir = options.scratch_dir + "/image";
  std::filesystem::create_directories(o.scratch_dir);
  ExtDfa result = ext::with_width(set.alphabet, [&](auto width) {
    Image<decltype(width)::value> image(set, change, o);
    const ext::Unreduced& u = image.run();
    return ext::reduce(u, out_dir, o, stats);
  });
  std::filesystem::remove_all(o.scratch_dir);
  return result;
}

ExtDfa ext_change_union(const ExtDfa& set, const std::vector<Change>& changes,
                        const std::string& out_dir, const ExtOptions& options) {
  if (changes.size() == 1) return ext_change(set, changes[0], out_dir, options);
  if (changes.empty()) {
    ExtDfaWriter empty(out_dir, set.alphabet, options.durable_result);
    for (unsigned i = 0; i < set.length(); ++i) empty.begin_layer(i), empty.end_layer();
    return empty.finish();
  }
  const std::string work = options.scratch_dir + "/images";
  ExtOptions part = options;  // the images and partial unions are scratch unless sync_scratch
  part.durable_result = options.sync_scratch;
  std::vector<ExtDfa> parts;
  for (std::size_t i = 0; i < changes.size(); ++i)
    parts.push_back(ext_change(set, changes[i], work + "/" + std::to_string(i), part));
  std::size_t next = changes.size();
  while (parts.size() > 1) {  // pairwise rounds: each string is merged log2(moves) times
    const bool final = parts.size() == 2;  // the last union writes the result
    std::vector<ExtDfa> united;
    for (std::size_t i = 0; i + 1 < parts.size(); i += 2) {
      united.push_back(ext_apply(ExtOp::kUnion, parts[i], parts[i + 1],
                                 final ? out_dir : work + "/" + std::to_string(next++),
                                 final ? options : part));
      remove_ext(parts[i].dir);
      remove_ext(parts[i + 1].dir);
    }
    if (parts.size() % 2) united.push_back(parts.back());
    parts.swap(united);
  }
  std::filesystem::remove_all(work);
  return parts[0];
}

}  // namespace zermelo::dfa
