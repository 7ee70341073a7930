// A value as programs read it: `{"result":"loss","plies":17}`, a draw or an unknown value without
// plies. Every command's --json gives values in this one form, so a script never parses
// "loss in 17".
#pragma once
#include <nlohmann/json.hpp>

#include "zermelo/engine/value.hpp"

namespace zermelo {

inline nlohmann::json value_json(Value v) {
  nlohmann::json j{{"result", v.result_name()}};
  if (v.is_win() || v.is_loss()) j["plies"] = v.plies();
  return j;
}

}  // namespace zermelo
