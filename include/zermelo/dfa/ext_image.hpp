// The move images of external sets (ext_dfa.hpp) out of core: a Change (set.hpp) applied to
// every string of a set, as sequential passes like ext_apply's.
//
// The in-RAM change recurses with random access to the table; here a top-down pass carries, for
// each state of the image, the set of input states whose strings it unites (pairs of a relabel
// with the same `after` unite two branches), looks their children up in sorted order, layer by
// layer, and the reduce of ext_apply numbers the result canonically. Algorithm: docs/dfa.md.
#pragma once
#include <string>
#include <vector>

#include "zermelo/dfa/ext_apply.hpp"
#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa {

// change(set) written as a canonical external set in out_dir. An image state may unite at most
// kExtImageWidth input states (Breakthrough's moves need 2); more throws std::length_error.
inline constexpr unsigned kExtImageWidth = 4;
ExtDfa ext_change(const ExtDfa& set, const Change& change, const std::string& out_dir,
                  const ExtOptions& options, ExtStats* stats = nullptr);

// The union of change(set) over the changes, each image a pass and then balanced unions (the
// first way, kept for comparison: ext_change_all gives the same set in one pass).
ExtDfa ext_change_union(const ExtDfa& set, const std::vector<Change>& changes,
                        const std::string& out_dir, const ExtOptions& options);

// The union of change(set) over the changes in one pass (ext_image_all.cpp): an image state is
// a list of (input state, set of moves) members, up to kExtImageAllWidth of them (with fewer, the
// pass uses narrower records; more throws std::length_error).
inline constexpr unsigned kExtImageAllWidth = 128;
ExtDfa ext_change_all(const ExtDfa& set, const std::vector<Change>& changes,
                      const std::string& out_dir, const ExtOptions& options,
                      ExtStats* stats = nullptr);

}  // namespace zermelo::dfa
