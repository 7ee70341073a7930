// The value of a game state, as every solver in Zermelo stores it: unknown, draw, or a win or
// loss for the player to move in k plies (the winner minimises k, the loser maximises it).
// It packs into 16 bits so value runs stay small on disk:
//   0 = unknown, 1 = draw, 2 + 2k = win in k plies, 3 + 2k = loss in k plies.
// With that packing a value's raw order is not its game order; use `better_for_mover`.
#pragma once
#include <cstdint>
#include <string>

namespace zermelo {

class Value {
 public:
  constexpr Value() = default;
  static constexpr Value unknown() { return Value(0); }
  static constexpr Value draw() { return Value(1); }
  static constexpr Value win(std::uint32_t plies) {
    return Value(static_cast<std::uint16_t>(2 + 2 * plies));
  }
  static constexpr Value loss(std::uint32_t plies) {
    return Value(static_cast<std::uint16_t>(3 + 2 * plies));
  }
  static constexpr Value from_raw(std::uint16_t raw) { return Value(raw); }
  static constexpr std::uint32_t kMaxPlies = (0xFFFFu - 3) / 2;

  constexpr std::uint16_t raw() const { return raw_; }
  constexpr bool is_known() const { return raw_ != 0; }
  constexpr bool is_draw() const { return raw_ == 1; }
  constexpr bool is_win() const { return raw_ >= 2 && raw_ % 2 == 0; }
  constexpr bool is_loss() const { return raw_ >= 3 && raw_ % 2 == 1; }
  constexpr std::uint32_t plies() const { return raw_ >= 2 ? (raw_ - 2u) / 2u : 0u; }

  // The value of a parent whose move leads to a child of this value (negamax, one ply more).
  constexpr Value parent_via() const {
    if (is_win()) return loss(plies() + 1);
    if (is_loss()) return win(plies() + 1);
    return *this;
  }

  // The same result from the other player's side, in as many plies (a win becomes a loss).
  constexpr Value for_opponent() const {
    if (is_win()) return loss(plies());
    if (is_loss()) return win(plies());
    return *this;
  }

  // Game order for the player to move: quick wins > slow wins > draw > slow losses > quick losses.
  constexpr int rank() const {
    if (is_win()) return 0x20000 - static_cast<int>(plies());
    if (is_loss()) return -0x20000 + static_cast<int>(plies());
    return 0;
  }
  friend constexpr bool better_for_mover(Value a, Value b) { return a.rank() > b.rank(); }
  friend constexpr bool operator==(Value a, Value b) { return a.raw_ == b.raw_; }

  // "win", "loss", "draw" or "unknown": the result without its plies.
  const char* result_name() const {
    return is_win() ? "win" : is_loss() ? "loss" : is_draw() ? "draw" : "unknown";
  }
  std::string to_string() const {
    if (!is_known()) return "unknown";
    if (is_draw()) return "draw";
    return (is_win() ? "win in " : "loss in ") + std::to_string(plies());
  }

 private:
  constexpr explicit Value(std::uint16_t raw) : raw_(raw) {}
  std::uint16_t raw_ = 0;
};

}  // namespace zermelo
