// A value of the CLI's and the probe's JSON read back as text, for tests that compare it with
// Value::to_string. Apart from test_util.hpp: most tests need no JSON parser, and it costs each
// file that includes it a second of compile time.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace zermelo::testing {

// `{"result":"win","plies":3}` as Value::to_string writes it ("win in 3").
inline std::string value_text(const nlohmann::json& v) {
  const std::string result = v.at("result");
  return v.contains("plies") ? result + " in " + std::to_string(v["plies"].get<int>()) : result;
}

}  // namespace zermelo::testing
