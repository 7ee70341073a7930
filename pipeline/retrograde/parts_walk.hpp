// Step 1 on all of a process's threads: the parts of a tier's enumeration (Game::enumeration_parts)
// walked at once, their keys handed on in part order.
//
// Why part order: a game that enumerates in key order has every key of part i below part i+1's,
// so keys handed on part by part are still increasing and go straight to the run, unsorted. The
// run is then the one thread's, byte for byte, whatever the number of threads.
//
// Memory: each part's keys wait in chunks of 16,384 (128 KiB) until the parts before it are
// handed on, at most 8 chunks a part and parts no further than 2 a thread past the one handed on
// (under 5 MiB on 2 threads: inside the slack `kPassOverhead` keeps beside a pass's sorter).
#pragma once
#include <cstdint>
#include <string>

#include "pipeline/retrograde/key_walk.hpp"
#include "zermelo/game.hpp"

namespace zermelo::retro {

// Parts [first, end) of `tier`'s enumeration on up to `threads` threads (one: walked in place),
// each key handed to the walk's EmitKey on the calling thread, in part order. An exception from a
// part or from the EmitKey stops every thread and reaches the caller.
StateWalk parts_walk(const Game& game, const std::string& tier, std::uint64_t first,
                     std::uint64_t end, unsigned threads);

}  // namespace zermelo::retro
