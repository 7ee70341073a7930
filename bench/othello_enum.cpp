// Bench: the layer enumeration (step 1 of the weak-solve pipeline) and deep perft.
//   othello_enum layers [--size 8|6|4] [--discs D]   symmetry-unique positions by discs; last layer
//                                                    with finished games dropped (8x8, D=14: the
//                                                    spec's 2,958,551 positions with 50 empties)
//   othello_enum perft DEPTH [--size 8|6|4]          both conventions for ended games
#include <chrono>
#include <cstdio>
#include <string>

#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/perft.hpp"

using namespace zermelo::othello;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <int N>
void layers(int discs) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<PosKey> last;
  const auto counts = unique_positions_by_discs<N>(discs, &last);
  const double secs = since(t0);
  std::printf(
      "%dx%d symmetry-unique positions (finished games included)\n| discs | empties | positions "
      "|\n|---|---|---|\n",
      N, N);
  for (std::size_t i = 0; i < counts.size(); ++i)
    std::printf("| %zu | %zu | %llu |\n", i + 4, static_cast<std::size_t>(N * N) - i - 4,
                static_cast<unsigned long long>(counts[i]));
  std::printf(
      "layer at %d discs (%d empties), finished games dropped, passes taken: %zu positions\n",
      discs, N * N - discs, last.size());
  std::printf("time %.2f s\n", secs);
}

template <int N>
void deep_perft(int depth) {
  const Position s = start_position(N);
  std::printf(
      "| depth | ended games vanish | ended games stay leaves | time (s) |\n|---|---|---|---|\n");
  for (int d = 1; d <= depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto a = perft<N>(s.black, s.white, d, EndedGames::kVanish);
    const auto b = perft<N>(s.black, s.white, d, EndedGames::kStayLeaves);
    std::printf("| %d | %llu | %llu | %.2f |\n", d, static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b), since(t0));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: othello_enum layers [--size S] [--discs D] | perft DEPTH [--size S]\n");
    return 2;
  }
  const std::string mode = argv[1];
  int size = 8, discs = 14, depth = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--size" && i + 1 < argc)
      size = std::stoi(argv[++i]);
    else if (a == "--discs" && i + 1 < argc)
      discs = std::stoi(argv[++i]);
    else if (mode == "perft" && depth == 0)
      depth = std::stoi(a);
    else {
      std::fprintf(stderr, "othello_enum: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (mode == "layers") {
    if (size == 4)
      layers<4>(discs);
    else if (size == 6)
      layers<6>(discs);
    else
      layers<8>(discs);
  } else if (mode == "perft") {
    if (size == 4)
      deep_perft<4>(depth);
    else if (size == 6)
      deep_perft<6>(depth);
    else
      deep_perft<8>(depth);
  } else {
    std::fprintf(stderr, "othello_enum: unknown mode %s\n", mode.c_str());
    return 2;
  }
  return 0;
}
