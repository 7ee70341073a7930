// Checks a solved ostle-mini variant at bench scale against the plain fixpoint solver of the
// tests (tests/ostle/plain_fixpoint.hpp, no engine code): every state of every tier's values run
// in WORK_DIR must carry the plain solver's value.
//
//   ostle_mini_check VARIANT WORK_DIR     e.g. ostle_mini_check 4x4:p3 work/om-4x4p3
//
// Exit code 0 when every value agrees, 1 otherwise. Prints states, sweeps and mismatches.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include "tests/ostle/plain_fixpoint.hpp"
#include "zermelo/engine/retrograde.hpp"

int main(int argc, char** argv) {
  using namespace zermelo;
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: %s VARIANT WORK_DIR (a work dir of `zermelo solve ostle-mini VARIANT`)\n",
                 argv[0]);
    return 2;
  }
  try {
    auto game = make_game("ostle-mini", {argv[1]});
    const auto t0 = std::chrono::steady_clock::now();
    const auto plain = ostle_mini_test::plain_fixpoint_solve(*game);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::uint64_t checked = 0, mismatches = 0;
    for (const Tier& t : game->tiers())
      for (const KeyValue& kv :
           load_values(tier_job_dir(*game, argv[2], t.name) + "/values-" + t.name + ".run")) {
        ++checked;
        if (!(Value::from_raw(kv.value) == plain.at(kv.key)) && mismatches++ < 5)
          std::printf("mismatch at key %llu: engine %s, plain %s\n",
                      static_cast<unsigned long long>(kv.key),
                      Value::from_raw(kv.value).to_string().c_str(),
                      plain.at(kv.key).to_string().c_str());
      }
    std::printf(
        "ostle-mini %s: plain fixpoint %zu states (closed: %s), %u sweeps, %.1f s; engine values "
        "checked %llu, "
        "mismatches %llu\n",
        argv[1], plain.keys.size(), plain.closed ? "yes" : "no", plain.sweeps, secs,
        static_cast<unsigned long long>(checked), static_cast<unsigned long long>(mismatches));
    return mismatches == 0 && checked == plain.keys.size() && plain.closed ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ostle_mini_check: %s\n", e.what());
    return 2;
  }
}
