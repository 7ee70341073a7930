// Predicted values by either evaluation under the shared shallow search (prediction.hpp).
#include "zermelo/games/othello/prediction.hpp"

#include "predict_search.hpp"
#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/patterns.hpp"

namespace zermelo::othello {

const char* predictor_name(Predictor p) {
  return p == Predictor::kPatterns ? "patterns" : "linear";
}

template <int N>
int predict(Bits p, Bits o, int depth, Predictor predictor) {
  if (N != 8 || predictor == Predictor::kLinear) return predict<N>(p, o, depth);
  const patterns::PatternWeights& w = patterns::default_pattern_weights();
  // The pattern evaluation is in 1/128 disc; predictions are in 1/100.
  const auto eval = [&w](Bits a, Bits b) {
    return w.evaluate(a, b) * 100 / patterns::kUnitsPerDisc;
  };
  return detail::predict_search<N>(p, o, depth, -1000000, 1000000, eval);
}

template int predict<4>(Bits, Bits, int, Predictor);
template int predict<6>(Bits, Bits, int, Predictor);
template int predict<8>(Bits, Bits, int, Predictor);

}  // namespace zermelo::othello
