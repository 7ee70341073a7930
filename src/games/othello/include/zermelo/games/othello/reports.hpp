// How the results of Othello's tasks (tasks.hpp) are shown: JSON for machines, text for people.
//
// Why apart from the tasks: the same result is printed by `zermelo othello ...` with or without
// --json, and the field names of the JSON are an interface (docs/othello.md, the tests, the
// bench scripts); keeping both forms of a report side by side keeps them in step.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "zermelo/games/othello/tasks.hpp"

namespace zermelo::othello {

nlohmann::json report_json(const PositionSolve& r);
std::string report_text(const PositionSolve& r);
nlohmann::json report_json(const ProblemSetSolve& r);
std::string report_text(const ProblemSetSolve& r);  // a table like Edax's `-solve`, and a total
nlohmann::json report_json(const PerftTable& r);
std::string report_text(const PerftTable& r);
nlohmann::json report_json(const Enumeration& r);
std::string report_text(const Enumeration& r);
nlohmann::json report_json(const WeakSolveReport& r);
std::string report_text(const WeakSolveReport& r);
nlohmann::json report_json(const ProofCheckReport& r);
std::string report_text(const ProofCheckReport& r);  // empty for a rejected proof
nlohmann::json report_json(const EvalFitReport& r);
std::string report_text(const EvalFitReport& r);
nlohmann::json report_json(const TrainReport& r);
std::string report_text(const TrainReport& r);
nlohmann::json report_json(const EvalErrorReport& r);
std::string report_text(const EvalErrorReport& r);  // a table by empties
nlohmann::json report_json(const LayerPrediction& r);
std::string report_text(const LayerPrediction& r);
nlohmann::json report_json(const SearchStats& s);  // a row for each empties count that saw work
std::string report_text(const SearchStats& s);     // the same as a table by empties
nlohmann::json report_json(const RandomPlayReport& r);
std::string report_text(const RandomPlayReport& r);

// One line of weak-solve progress, for stderr.
std::string progress_line(const WeakSolveProgress& p);

}  // namespace zermelo::othello
