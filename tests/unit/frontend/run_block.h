// Running a lowered kernel on the interpreter for the frontend's tests: one block, its
// parameter `out` an array of `cells` elements.
#pragma once

#include "verify/interp/interp.h"
#include "verify/ir/kir.h"

#include <doctest/doctest.h>

#include <cstdint>

namespace ksynth::frontend::test {

// The finished run (required to complete); `out` is the parameter's array id.
inline interp::GridRun runOneBlock(const ir::Kernel &k, int64_t threads, int64_t cells, int &out) {
  interp::Env env;
  env.block = {threads, 1, 1};
  env.grid = {1, 1, 1};
  out = k.findParamArray("out");
  REQUIRE(out >= 0);
  env.lens[out] = cells;
  interp::GridRun run = interp::runGrid(k, env);
  INFO(run.error);
  REQUIRE(run.completed);
  return run;
}

} // namespace ksynth::frontend::test
