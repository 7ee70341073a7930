// The Python module `zermelo`: the probe API (zermelo/probe.hpp) from Python, for analysis.
//
//   import zermelo
//   db = zermelo.open("work/default-onitama-3x4")
//   db.value("start"), db.moves("start"), db.best_move("start"), db.line("start")
//   for keys, outcomes, plies in db.blocks(): ...   # a values run as NumPy arrays
//
// States are given as text ("start" too) or as keys (int). Probes release the GIL, so threads
// probe one database at once. Errors raise zermelo.Error (a RuntimeError) with the message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "zermelo/probe.hpp"

namespace py = pybind11;
using namespace zermelo::probe;

namespace {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kWin:
      return "win";
    case Outcome::kLoss:
      return "loss";
    case Outcome::kDraw:
      return "draw";
    default:
      return "unknown";
  }
}

// One block of a values run as three arrays: keys (uint64), outcomes (uint8: the Outcome codes,
// zermelo.WIN...) and plies (uint32).
py::tuple block_arrays(const std::vector<std::uint64_t>& keys,
                       const std::vector<std::uint16_t>& raw) {
  py::array_t<std::uint64_t> k(keys.size());
  py::array_t<std::uint8_t> o(keys.size());
  py::array_t<std::uint32_t> p(keys.size());
  auto kk = k.mutable_unchecked<1>();
  auto oo = o.mutable_unchecked<1>();
  auto pp = p.mutable_unchecked<1>();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Value v = ValuesRun::decode(raw[i]);
    kk(i) = keys[i], oo(i) = static_cast<std::uint8_t>(v.outcome), pp(i) = v.plies;
  }
  return py::make_tuple(k, o, p);
}

// Iterates over the blocks of the values runs of some tiers of a database, in turn (the database
// is kept alive by the iterator: py::keep_alive).
class Blocks {
 public:
  Blocks(const Database& db, std::vector<std::string> tiers) : db_(db), tiers_(std::move(tiers)) {}
  py::tuple next() {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint16_t> raw;
    bool done = false;
    {
      py::gil_scoped_release unlocked;
      while (!done && (!run_ || block_ == run_->blocks())) {  // on to a tier with blocks left
        done = next_tier_ == tiers_.size();
        if (!done) run_ = std::make_unique<ValuesRun>(db_, tiers_[next_tier_++]), block_ = 0;
      }
      if (!done) run_->read_block(block_++, keys, raw);
    }
    if (done) throw py::stop_iteration();
    return block_arrays(keys, raw);
  }

 private:
  const Database& db_;
  std::vector<std::string> tiers_;
  std::size_t next_tier_ = 0, block_ = 0;
  std::unique_ptr<ValuesRun> run_;
};

void bind_values(py::module_& m) {
  py::class_<Value>(m, "Value", "a value for the player to move: win/loss in plies, or draw")
      .def_property_readonly("outcome", [](const Value& v) { return outcome_name(v.outcome); })
      .def_readonly("plies", &Value::plies)
      .def("__str__", &Value::text)
      .def("__repr__", [](const Value& v) { return "<zermelo.Value " + v.text() + ">"; })
      .def("__eq__", [](const Value& a, const Value& b) { return a == b; });
  py::class_<Move>(m, "Move", "a legal move and its value for the player who plays it")
      .def_readonly("name", &Move::name)
      .def_readonly("value", &Move::value)
      .def_readonly("ends_game", &Move::ends_game)
      .def_readonly("key", &Move::key)
      .def("__repr__",
           [](const Move& x) { return "<zermelo.Move " + x.name + ": " + x.value.text() + ">"; });
  py::class_<Step>(m, "Step", "a state of a perfect line and the move played from it")
      .def_readonly("key", &Step::key)
      .def_readonly("value", &Step::value)
      .def_readonly("move", &Step::move)
      .def("__repr__",
           [](const Step& s) { return "<zermelo.Step " + s.value.text() + " " + s.move + ">"; });
  m.attr("UNKNOWN") = static_cast<int>(Outcome::kUnknown);
  m.attr("WIN") = static_cast<int>(Outcome::kWin);
  m.attr("LOSS") = static_cast<int>(Outcome::kLoss);
  m.attr("DRAW") = static_cast<int>(Outcome::kDraw);
}

// Both spellings of a state for one probe: text (or "start") and key.
template <class R>
void both(py::class_<Database>& c, const char* name,
          R (Database::*by_text)(const std::string&) const,
          R (Database::*by_key)(std::uint64_t) const, const char* doc) {
  const auto release = py::call_guard<py::gil_scoped_release>();
  c.def(name, by_text, py::arg("state"), release, doc);
  c.def(name, by_key, py::arg("key"), release, doc);
}

void bind_database(py::module_& m) {
  py::class_<Database> c(m, "Database", "a solved work dir opened for reading");
  both<Value>(c, "value", &Database::value, &Database::value, "the state's value");
  both<std::vector<Move>>(c, "moves", &Database::moves, &Database::moves, "every move's value");
  both<std::optional<Move>>(c, "best_move", &Database::best_move, &Database::best_move,
                            "what a perfect player plays (None: no move)");
  c.def("line", py::overload_cast<const std::string&, std::size_t>(&Database::line, py::const_),
        py::arg("state"), py::arg("max_steps") = 10000, py::call_guard<py::gil_scoped_release>());
  c.def("line", py::overload_cast<std::uint64_t, std::size_t>(&Database::line, py::const_),
        py::arg("key"), py::arg("max_steps") = 10000, py::call_guard<py::gil_scoped_release>());
  c.def("key", &Database::key, py::arg("state"), "a state's key from its text, or 'start'");
  c.def("render", &Database::render, py::arg("key"), "a diagram of the state");
  c.def_property_readonly("game", &Database::game);
  c.def_property_readonly("options", &Database::options);
  c.def("tiers", &Database::tiers, "the solved tiers, bottom-up");
  c.def(
      "blocks",
      [](const Database& db, std::optional<std::string> tier) {
        return Blocks(db, tier ? std::vector<std::string>{*tier} : db.tiers());
      },
      py::arg("tier") = py::none(), py::keep_alive<0, 1>(),
      "(keys, outcomes, plies) NumPy arrays, block by block, of one tier or all, in key order");
  c.def("close", &Database::close);
  c.def(
      "__enter__", [](Database& db) -> Database& { return db; },
      py::return_value_policy::reference);
  c.def("__exit__", [](Database& db, py::args) { db.close(); });
}

}  // namespace

PYBIND11_MODULE(zermelo, m) {
  m.doc() = "Probe games solved by Zermelo: values, moves, perfect lines, values runs as arrays";
  py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  bind_values(m);
  py::class_<Blocks>(m, "Blocks")
      .def(
          "__iter__", [](Blocks& b) -> Blocks& { return b; }, py::return_value_policy::reference)
      .def("__next__", &Blocks::next);
  bind_database(m);
  m.def(
      "open", [](const std::string& work_dir) { return Database(work_dir); }, py::arg("work_dir"),
      "open a solved work dir (the game and its options come from its manifest)");
}
