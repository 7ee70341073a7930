// External DFA sets against in-RAM sets on Breakthrough's forward plies: the time of a union of
// two consecutive plies and of a ply's forward image (all moves), in RAM and out of core, with
// the out-of-core runs in a process of their own so that its peak RSS is theirs alone.
//
//   dfa_ext prepare BOARD PLIES DIR   the plies R(i) and Open(i) in RAM, saved as external sets
//   dfa_ext ram BOARD FROM TO         the operations on plies FROM..TO in RAM (from the start)
//   dfa_ext ext BOARD FROM TO DIR MEM [all|each] [sync]
//                                     the same operations on the saved sets, out of core: the
//                                     image of all moves in one pass (all, the default) or a
//                                     pass a move and unions (each); with `sync` the scratch
//                                     runs are fsynced too (ExtOptions::sync_scratch)
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "zermelo/dfa/ext_image.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"
#include "zermelo/util/size.hpp"

namespace {

using namespace zermelo;
using namespace zermelo::dfa;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Game {
  std::unique_ptr<Manager> m;
  SetGame g;
  Game(const std::string& board, std::uint64_t budget) {
    auto b = breakthrough::parse_board(board);
    m = breakthrough::make_manager(b, budget);
    g = breakthrough::make_game(*m, b);
  }
  Set open(const Set& r) const { return r - (g.won0 | g.lost0); }
};

std::string ply_dir(const std::string& dir, const char* what, unsigned ply) {
  return dir + "/" + what + "-" + std::to_string(ply);
}

int prepare(const std::string& board, unsigned plies, const std::string& dir) {
  Game x(board, 8ull << 30);
  Set r = x.m->singleton(x.g.start);
  for (unsigned ply = 0; ply <= plies; ++ply) {
    const ExtDfa e = save_ext(r, ply_dir(dir, "R", ply));
    save_ext(x.open(r), ply_dir(dir, "Open", ply));
    std::printf("ply %u: %zu states, digest %016llx\n", ply, r.states(),
                static_cast<unsigned long long>(e.digest));
    r = forward(x.g, x.open(r));
  }
  return 0;
}

int ram(const std::string& board, unsigned from, unsigned to) {
  Game x(board, 8ull << 30);
  x.m->set_threads(1);
  Set r = x.m->singleton(x.g.start);
  std::printf("ply | states R(i) | union R(i) | R(i+1) s | forward(Open(i)) s\n");
  for (unsigned ply = 0; ply <= to; ++ply) {
    const Set next = forward(x.g, x.open(r));
    if (ply >= from) {
      x.m->clear_operation_cache();
      auto t = Clock::now();
      const Set u = r | next;
      const double tu = since(t);
      x.m->clear_operation_cache();
      t = Clock::now();
      const Set f = forward(x.g, x.open(r));
      std::printf("%u | %zu | %.3f | %.3f | %zu states\n", ply, r.states(), tu, since(t),
                  f.states());
    }
    r = next;
  }
  return 0;
}

int ext(const std::string& board, unsigned from, unsigned to, const std::string& dir,
        std::uint64_t memory, bool one_pass, bool sync) {
  Game x(board, 256ull << 20);  // only for the moves' changes
  std::vector<Change> moves;
  for (const SetMove& mv : x.g.moves) moves.push_back(mv.change);
  ExtOptions o{dir + "/tmp", memory};
  o.sync_scratch = sync;
  std::printf(
      "%zu moves, image %s, scratch %s\nply | union s (product states, spilled runs) | forward s "
      "(states)\n",
      moves.size(), one_pass ? "in one pass" : "a pass a move", sync ? "synced" : "not synced");
  for (unsigned ply = from; ply <= to; ++ply) {
    const ExtDfa r = open_ext(ply_dir(dir, "R", ply)), next = open_ext(ply_dir(dir, "R", ply + 1));
    ExtStats st;
    auto t = Clock::now();
    ext_apply(ExtOp::kUnion, r, next, dir + "/union", o, &st);
    const double tu = since(t);
    t = Clock::now();
    const ExtDfa open = open_ext(ply_dir(dir, "Open", ply));
    const ExtDfa f = one_pass ? ext_change_all(open, moves, dir + "/fwd", o)
                              : ext_change_union(open, moves, dir + "/fwd", o);
    const double tf = since(t);
    const bool same = f.digest == next.digest;
    std::printf("%u | %.3f (%llu, %llu) | %.3f (%llu states, %s)\n", ply, tu,
                static_cast<unsigned long long>(st.product_states),
                static_cast<unsigned long long>(st.spilled_runs), tf,
                static_cast<unsigned long long>(f.total_states()),
                same ? "digest = R(i+1)" : "DIGEST DIFFERS");
    if (!same) return 1;
  }
  return 0;
}

// A ply number from the command line, or an error naming the word.
unsigned ply_arg(const char* word) {
  unsigned ply = 0;
  const char* end = word + std::strlen(word);
  const auto [at, ec] = std::from_chars(word, end, ply);
  if (ec != std::errc() || at != end || ply > 1000)
    throw std::invalid_argument(std::string("not a ply number (0..1000): '") + word + "'");
  return ply;
}

int run(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "prepare" && argc == 5) return prepare(argv[2], ply_arg(argv[3]), argv[4]);
  if (mode == "ram" && argc == 5) return ram(argv[2], ply_arg(argv[3]), ply_arg(argv[4]));
  if (mode == "ext" && argc >= 7 && argc <= 9) {
    const std::string image = argc > 7 ? argv[7] : "all", sync = argc > 8 ? argv[8] : "";
    if ((image == "all" || image == "each") && (sync.empty() || sync == "sync"))
      return ext(argv[2], ply_arg(argv[3]), ply_arg(argv[4]), argv[5], parse_size(argv[6]),
                 image == "all", sync == "sync");
  }
  std::fprintf(stderr,
               "usage: dfa_ext prepare BOARD PLIES DIR | ram BOARD FROM TO |"
               " ext BOARD FROM TO DIR MEMORY [all|each] [sync]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dfa_ext: error: %s\n", e.what());
    return 2;
  }
}
