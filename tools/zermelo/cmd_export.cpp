// `zermelo export [GAME [OPTIONS...]] [--tier T] [--format csv|jsonl]`: a solved work dir's values
// as text for other tools: one line per state (key, tier, result, plies), streamed block by block
// from the values runs the manifest records (SolvedDatabase::open_values), so memory stays one
// block whatever the game's size.
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace zermelo::cli {
namespace {

struct ExportArgs {
  std::vector<std::string> words;  // [GAME [OPTIONS...]]
  std::string tier;                // empty: every solved tier, bottom-up
  std::string format = "csv";
};

// One state's line: `key,tier,result,plies` or `{"key":…,"tier":…,"result":…,"plies":…}`.
void append_line(std::string& out, bool jsonl, const std::string& tier, const KeyValue& kv) {
  const Value v = Value::from_raw(kv.value);
  const char* result = v.result_name();
  const std::string key = std::to_string(kv.key), plies = std::to_string(v.plies());
  if (jsonl)
    out += "{\"key\":" + key + ",\"tier\":\"" + tier + "\",\"result\":\"" + result +
           "\",\"plies\":" + plies + "}\n";
  else
    out += key + "," + tier + "," + result + "," + plies + "\n";
}

void run_export(const ExportArgs& a) {
  const std::string dir = globals().work_dir;
  WorkDirLock lock(dir, WorkDirLock::Mode::kRead, "export");
  SolvedDatabase db(dir, game_request(a.words));
  const bool jsonl = a.format == "jsonl";
  std::string out;
  if (!jsonl) out = "key,tier,result,plies\n";
  for (const std::string& tier : a.tier.empty() ? db.tiers() : std::vector<std::string>{a.tier}) {
    const auto run = db.open_values(tier);
    for (std::size_t b = 0; b < run->info().blocks.size(); ++b) {
      const std::vector<std::byte> bytes = run->read_block(b);
      for (std::size_t at = 0; at + sizeof(KeyValue) <= bytes.size(); at += sizeof(KeyValue)) {
        KeyValue kv;
        std::memcpy(&kv, bytes.data() + at, sizeof kv);
        append_line(out, jsonl, tier, kv);
      }
      if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
        throw std::runtime_error("export: cannot write the output");
      out.clear();
    }
  }
  if (std::fflush(stdout) != 0) throw std::runtime_error("export: cannot write the output");
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(18, [](CLI::App& app) {
  using namespace zermelo::cli;
  auto* sub = app.add_subcommand(
      "export", "a solved work dir's values as CSV or JSON Lines, one state a line, streamed");
  auto& a = command_options<ExportArgs>(sub, run_export);
  zermelo::cli::add_game_words(sub, a.words);
  sub->add_option("--tier", a.tier, "only this solved tier (default: every one, bottom-up)");
  sub->add_option("--format", a.format, "csv (with a header line) or jsonl")
      ->check(CLI::IsMember({"csv", "jsonl"}))
      ->capture_default_str();
  sub->footer(
      "Lines: key,tier,result,plies (result: win, loss or draw for the player to move;\n"
      "plies 0 for a draw), in key order within each tier. `decode KEY` shows a state.\n"
      "Example: zermelo --work-dir work/nim export --format jsonl > nim.jsonl");
});
