// The generic `zermelo query`, callable by the commands that are its aliases (`onitama query`):
// the value of one state and of every move, from the solved values runs of a work dir.
#pragma once
#include <string>
#include <vector>

namespace zermelo::cli {

struct QueryArgs {
  std::vector<std::string> words;  // [GAME [OPTIONS...]] STATE
  std::vector<std::string> options;
  std::string forbidden;
  std::string svg;  // a file for the state's picture, as SVG
  std::string png;  // and as PNG
};

// Prints the query's answer about the work dir `dir` (its game from the manifest).
void run_query(const QueryArgs& a, const std::string& dir);

}  // namespace zermelo::cli
