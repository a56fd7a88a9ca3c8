// synth/ bench metrics: a bench run's rows (bench.h) summarised.
//
//  - pass@k per stage (k = 1, 5, 10 where k <= samples): the unbiased estimator of Chen et
//    al. 2021, 1 - C(n-c, k) / C(n, k), for each spec with n samples of which c reached the
//    stage in any round, averaged over specs. "allclose" is the same over the plain test: a
//    sample counts when one of its candidates passed it.
//  - repair curves: pass@1 of a stage counting only rounds 1..r, for r = 1..rounds.
//  - the correctness-illusion rate: of the candidates that passed the plain test (one run at
//    the default shape), the share that the proof refutes (races, other sizes, stale
//    buffers). Those left undecided are counted apart, never as illusions.
//  - fast_p (KernelBench's): the share of samples proven, run on a GPU and faster than the
//    baseline by more than p (p = 0 and 1; speedup = baseline time / kernel time); absent,
//    with the reason, where no GPU timing or no baseline exists.
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

namespace ksynth::synth::bench {

// 1 - C(n-c, k)/C(n, k); requires 0 <= c <= n and 1 <= k <= n.
double passAtK(int n, int c, int k);

// The metrics of one run: `bench` is its bench.json, `rows` every row of its finished
// samples, `tasks` how many samples it has in all.
nlohmann::json summarise(const nlohmann::json &bench, const std::vector<nlohmann::json> &rows, size_t tasks);

} // namespace ksynth::synth::bench
