// Probing a solved game from another program with the C++ API: the value of a state, every move's
// value, the best move and the perfect line. Usage: probe_example WORK_DIR [STATE] (default start).
#include <zermelo/probe.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: probe_example WORK_DIR [STATE]\n";
    return 2;
  }
  try {
    zermelo::probe::Database db(argv[1]);
    const std::string state = argc > 2 ? argv[2] : "start";
    std::cout << "game: " << db.game();
    for (const auto& option : db.options()) std::cout << " " << option;
    std::cout << "\nvalue: " << db.value(state).text() << "\n";
    for (const auto& m : db.moves(state))
      std::cout << "move " << m.name << ": " << m.value.text() << "\n";
    if (auto best = db.best_move(state)) std::cout << "best: " << best->name << "\n";
    std::cout << "line:";
    for (const auto& step : db.line(state))
      if (!step.move.empty()) std::cout << " " << step.move;
    std::cout << "\n";
  } catch (const zermelo::probe::Error& e) {
    std::cerr << "probe_example: " << e.what() << "\n";
    return 1;
  }
}
