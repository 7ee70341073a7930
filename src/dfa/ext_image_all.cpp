// The image of an external set under a whole list of moves in one top-down pass
// (ext_change_all in ext_image.hpp), instead of a pass a move and rounds of unions.
//
// An image state is a set of members (q, M): input state q of its layer, read through the moves
// of M (a set of move ids; one extra id stands for "no change left", the moves past their last
// relabelled position, which all read the input unchanged). Its language is the union over the
// members of the remaining changes of M applied to q's language. Members with the same q are
// merged (their sets united), so a request is at most K members, sorted by q. The move sets are
// interned in RAM (a pass meets few distinct ones: Breakthrough's are the moves not yet begun at
// a position, one side's, and the moves half done) and so is what each set does on each layer.
// Layer by layer, as in ext_image.cpp: the requests are sorted, each distinct member list is an
// image state, its members' children are looked up in the input's layer in state order and
// gathered back by image state, and each character's members form the next layer's request.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "ext_internal.hpp"
#include "zermelo/dfa/ext_image.hpp"

namespace zermelo::dfa {
namespace {

using ext::Arc;
using ext::Kids;
using Pairs = std::vector<std::pair<std::uint8_t, std::uint8_t>>;
using Bits = std::vector<std::uint64_t>;  // a set of move ids

struct Member {
  std::uint32_t q, mask;  // q = 0: an unused slot (the members are sorted by q, unused last)
  auto operator<=>(const Member&) const = default;
};

// A request holding more than K members: the pass is redone with a wider record.
struct TooWide {};

// The interned move sets and what each does on each layer.
class Masks {
 public:
  // One group of a set's moves on a layer: those that keep every character, or those
  // relabelling it by `pairs` (other characters dropped); `next` is the group's set on the next
  // layer.
  struct Group {
    bool keep;
    Pairs pairs;
    std::uint32_t next;
  };

  explicit Masks(const std::vector<Change>& changes, unsigned length)
      : moves_(changes.size()), words_((changes.size() + 1 + 63) / 64) {
    pairs_.assign(moves_, std::vector<Pairs>(length));
    touches_.assign(moves_, std::vector<bool>(length, false));
    last_.assign(moves_, -1);
    for (std::size_t m = 0; m < moves_; ++m) {
      for (const Relabel& r : changes[m].relabels) {
        if (r.position >= length) throw std::invalid_argument("external image: relabel past end");
        auto& p = pairs_[m][r.position];
        p.insert(p.end(), r.pairs.begin(), r.pairs.end());
        touches_[m][r.position] = true;
        last_[m] = std::max(last_[m], static_cast<int>(r.position));
      }
    }
    for (auto& by_layer : pairs_)
      for (Pairs& p : by_layer) std::sort(p.begin(), p.end());
  }

  // The set of all the moves (those that change nothing read as "no change left").
  std::uint32_t all() {
    Bits b(words_, 0);
    for (std::size_t m = 0; m < moves_; ++m) set(b, last_[m] < 0 ? moves_ : m);
    return intern(b);
  }

  const std::vector<Group>& on_layer(std::uint32_t mask, unsigned layer) {
    const std::uint64_t key = (std::uint64_t{mask} << 32) | layer;
    auto it = steps_.find(key);
    if (it != steps_.end()) return it->second;
    std::map<std::pair<bool, Pairs>, Bits> groups;  // keyed by (keep, pairs)
    const Bits b = bits_[mask];                     // a copy: intern() below may move the table
    for (std::size_t m = 0; m <= moves_; ++m) {
      if (!(b[m / 64] >> (m % 64) & 1)) continue;
      const bool moving = m < moves_, keep = !moving || !touches_[m][layer];
      const Pairs& p = keep ? none_ : pairs_[m][layer];
      Bits& g = groups.try_emplace({keep, p}, Bits(words_, 0)).first->second;
      set(g, moving && last_[m] > static_cast<int>(layer) ? m : moves_);
    }
    std::vector<Group> out;
    for (auto& [kp, g] : groups) out.push_back(Group{kp.first, kp.second, intern(g)});
    return steps_.emplace(key, std::move(out)).first->second;
  }

  std::uint32_t unite(std::uint32_t a, std::uint32_t b) {
    if (a == b) return a;
    const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    auto it = unions_.find(key);
    if (it != unions_.end()) return it->second;
    Bits u = bits_[a];
    for (std::size_t w = 0; w < words_; ++w) u[w] |= bits_[b][w];  // before intern() grows bits_
    return unions_.emplace(key, intern(u)).first->second;
  }

  std::size_t size() const { return bits_.size(); }

 private:
  static void set(Bits& b, std::size_t m) { b[m / 64] |= std::uint64_t{1} << (m % 64); }
  std::uint32_t intern(const Bits& b) {
    auto [it, fresh] = ids_.try_emplace(b, static_cast<std::uint32_t>(bits_.size()));
    if (fresh) bits_.push_back(b);
    return it->second;
  }

  std::size_t moves_, words_;
  std::vector<std::vector<Pairs>> pairs_;   // [move][layer]
  std::vector<std::vector<bool>> touches_;  // [move][layer]: a relabel there
  std::vector<int> last_;                   // each move's last relabelled position (-1: none)
  Pairs none_;
  std::map<Bits, std::uint32_t> ids_;
  std::vector<Bits> bits_;
  std::unordered_map<std::uint64_t, std::vector<Group>> steps_;
  std::unordered_map<std::uint64_t, std::uint32_t> unions_;
};

template <unsigned K>
using Members = std::array<Member, K>;

template <unsigned K>
struct Request {
  Members<K> m;
  std::uint32_t src, c;
};
template <unsigned K>
struct RequestLess {
  bool operator()(const Request<K>& x, const Request<K>& y) const {
    return std::tie(x.m, x.src, x.c) < std::tie(y.m, y.src, y.c);
  }
};
struct Lookup {  // member j of image state p is input state `state` read through `mask`
  std::uint32_t state, p, j, mask;
};
struct LookupLess {
  static constexpr bool kOrdersByRadixLayout = true;  // radix layout below
  bool operator()(const Lookup& x, const Lookup& y) const {
    return std::tie(x.state, x.p, x.j) < std::tie(y.state, y.p, y.j);
  }
};
template <unsigned N>
struct Found {  // member j of image state p: its move set and input state's children
  std::uint32_t p, j, mask;
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
struct RadixLayout<dfa::Lookup> : dfa::ext::LookupRadixLayout<dfa::Lookup> {};
template <unsigned N>
struct RadixLayout<dfa::Found<N>> : dfa::ext::FoundRadixLayout<dfa::Found<N>> {};
}  // namespace zermelo

namespace zermelo::dfa {
namespace {

template <unsigned N, unsigned K>
class ImageAll {
 public:
  ImageAll(const ExtDfa& in, Masks& masks, const ExtOptions& o) : in_(in), masks_(masks), o_(o) {
    u_ = ext::start_product(o, in.alphabet);
  }

  const ext::Unreduced& run() {
    requests_ = std::make_unique<Requests>(ext::sort_options(o_, "requests", 3));
    if (!in_.empty()) requests_->push(Request<K>{Members<K>{Member{1, masks_.all()}}, 0, 0});
    ext::image_layers<Lookups, Founds>(*this, u_, o_, requests_);
    return u_;
  }

  using Requests = ExternalSorter<Request<K>, RequestLess<K>>;
  using Lookups = ExternalSorter<Lookup, LookupLess>;
  static_assert(Lookups::uses_radix_sort(), "the largest sort of the image (a profile's half)");
  using Founds = ExternalSorter<Found<N>, FoundLess<N>>;

  // Numbers the layer's image states, writes the arcs into them, asks for their members.
  void number(unsigned layer, Lookups& lookups) {
    u_.states[layer] =
        ext::number_requests<Request<K>>(u_, layer, *requests_, [&](const Request<K>& r, auto id) {
          for (std::uint32_t j = 0; j < K && r.m[j].q != 0; ++j)
            lookups.push(Lookup{r.m[j].q, id, j, r.m[j].mask});
        });
    requests_.reset();
  }

  void look_up(unsigned layer, Lookups& lookups, Founds& found) {
    ext::join_layer<N, Lookup>(in_, layer, lookups, [&](const Lookup& l, const Kids<N>& kids) {
      found.push(Found<N>{l.p, l.j, l.mask, kids});
    });
  }

 private:
  // Adds member (q, mask) to a list sorted by q, uniting the sets of an input state met twice.
  void add(Members<K>& m, std::uint32_t q, std::uint32_t mask) {
    if (q == 0) return;
    unsigned n = 0;
    while (n < K && m[n].q != 0 && m[n].q < q) ++n;
    if (n < K && m[n].q == q) {
      m[n].mask = masks_.unite(m[n].mask, mask);
      return;
    }
    if (m[K - 1].q != 0) throw TooWide{};
    std::move_backward(m.begin() + n, m.end() - 1, m.end());
    m[n] = Member{q, mask};
  }

 public:
  // Each image state's children: per character, the members its members' moves lead to.
  // (Called by ext::image_layers, as number and look_up.)
  void expand(unsigned layer, Founds& found) {
    const bool last = layer + 1 == u_.alphabet.size();
    const std::unique_ptr<RunWriter> final_arcs = ext::layer_output(u_, o_, layer, requests_);
    const unsigned sigma = u_.alphabet[layer];
    std::vector<Members<K>> out(sigma);
    auto flush = [&](std::uint32_t p) {
      for (std::uint32_t c = 0; c < sigma; ++c) {
        if (out[c][0].q == 0) continue;
        if (last)
          final_arcs->push(Arc{1, p, c});
        else
          requests_->push(Request<K>{out[c], p, c});
      }
      std::fill(out.begin(), out.end(), Members<K>{});
    };
    bool open = false;
    std::uint32_t p = 0;
    for (Found<N> f; found.next(f);) {
      if (open && f.p != p) flush(p);
      p = f.p, open = true;
      for (const Masks::Group& g : masks_.on_layer(f.mask, layer)) {
        if (g.keep) {
          for (std::uint32_t c = 0; c < sigma; ++c) add(out[c], f.kids[c], g.next);
        } else {
          for (auto [before, after] : g.pairs) add(out[after], f.kids[before], g.next);
        }
      }
    }
    if (open) flush(p);
    if (final_arcs) final_arcs->finish();
  }

 private:
  const ExtDfa& in_;
  Masks& masks_;
  ExtOptions o_;
  ext::Unreduced u_;
  std::unique_ptr<Requests> requests_;
};

// The pass with requests of K members, or with wider ones if a request needs more.
template <unsigned N, unsigned K>
ExtDfa image_all(const ExtDfa& set, Masks& masks, const std::string& out_dir, const ExtOptions& o,
                 ExtStats* stats) {
  try {
    ImageAll<N, K> image(set, masks, o);
    const ext::Unreduced& u = image.run();
    return ext::reduce(u, out_dir, o, stats);
  } catch (const TooWide&) {
    if constexpr (K < kExtImageAllWidth) {
      std::filesystem::remove_all(o.scratch_dir);
      std::filesystem::create_directories(o.scratch_dir);
      return image_all<N, K * 4>(set, masks, out_dir, o, stats);
    } else {
      throw std::length_error("external image: a state unites more than " +
                              std::to_string(kExtImageAllWidth) + " input states");
    }
  }
}

}  // namespace

ExtDfa ext_change_all(const ExtDfa& set, const std::vector<Change>& changes,
                      const std::string& out_dir, const ExtOptions& options, ExtStats* stats) {
  ExtOptions o = options;
  o.scratch_dir = options.scratch_dir + "/image-all";
  std::filesystem::create_directories(o.scratch_dir);
  Masks masks(changes, set.length());
  ExtDfa result = ext::with_width(set.alphabet, [&](auto width) {
    return image_all<decltype(width)::value, 8>(set, masks, out_dir, o, stats);
  });
  std::filesystem::remove_all(o.scratch_dir);
  return result;
}

}  // namespace zermelo::dfa
