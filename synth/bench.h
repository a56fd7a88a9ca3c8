// synth/ bench: what `ksynth bench` measures — the synthesis loop run on every spec of a
// suite, K independent samples each (one loop per sample, its own conversation), and for
// every candidate of every round: the stage it reached, the verdict, the kind of
// counterexample, tokens, seconds, and the plain test a harness without proofs would have
// trusted (the candidate run once at the default shape on fresh inputs, `ksynth run
// --no-proof`). This file reads one sample's run directory and writes its rows; the loop
// itself is `ksynth --spec SPEC --prove` (cli/bench.cpp runs it); bench_metrics.h turns rows
// into pass@k, repair curves and the correctness-illusion rate.
//
// A bench run directory:
//   bench.json                       what was asked (suite, specs with their sha256, samples,
//                                    rounds, provider, model, endpoint; never a key)
//   tasks/SPEC/sample-K/             sample K's loop run directory (synth/loop.h), plus
//     round-N/allclose.json          the plain test of round N's candidate (`ksynth run` JSON)
//     rows.jsonl                     the sample's rows, written when the sample is finished:
//                                    a sample with this file is never run again
//   results.jsonl, summary.json      every row in task order, and the metrics (rebuilt at the end)
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::synth::bench {

// The stages a candidate can reach, in order; each implies the ones before it.
//   extracted   a kernel was found in the reply
//   parses      it compiles (where nvcc is) and the verifier reads it
//   safe        no race, no barrier divergence, in bounds, no overflow (every obligation other
//               than coverage and equivalence proven)
//   equivalent  every obligation proven, equivalence with the spec included
//   ran         the proven kernel's `ksynth run` agreed with the spec (the GPU where there is
//               one, else the CPU interpreter; the row says which)
//   faster      timed on a GPU and faster than the baseline given for the spec at those sizes
inline const std::vector<std::string> kStages = {"extracted", "parses", "safe", "equivalent", "ran", "faster"};
// Index of a stage in kStages; -1 for "none" (no reply, or no kernel in it).
int stageIndex(const std::string &stage);

struct Task {
  std::string spec;     // the spec's name
  std::string specFile; // absolute path
  int sample = 1;       // 1..K
};

// The tasks of a run, in order: specs in bench.json's order, samples 1..K within each.
std::vector<Task> tasks(const nlohmann::json &bench);
std::filesystem::path taskDir(const std::filesystem::path &run, const Task &t);

// Shard `index` of `count`: every count-th task from the index-th.
std::vector<Task> shardTasks(const std::vector<Task> &all, int index, int count);

// The sample is finished: its rows are written.
bool taskDone(const std::filesystem::path &dir);
// The loop of the sample ended with a verdict (report.json's status is final), so only the
// plain tests and the rows remain.
bool loopFinished(const std::filesystem::path &dir);

// The plain test of every round's candidate that has none yet (`ksynth` is the executable;
// `nvcc` as for `ksynth run --nvcc`; each run under `timeoutS`), then the rows, written to
// rows.jsonl. False with `err` when the directory holds no finished loop. `stop`, when set,
// ends it between candidates (nothing is written then).
bool finishTask(const std::string &ksynth, const nlohmann::json &bench, const Task &t,
                const std::filesystem::path &dir, double timeoutS, const std::atomic<bool> *stop, std::string &err);

// The rows of a finished sample, from its directory (report.json, round-N/report.json,
// round-N/allclose.json). The baseline (bench.json's "baseline": op, sizes, median_ms per
// line of bench/gpu_baselines.py) decides "faster".
std::vector<nlohmann::json> taskRows(const nlohmann::json &bench, const Task &t, const std::filesystem::path &dir);

// rows.jsonl of a finished sample (empty when there is none).
std::vector<nlohmann::json> readRows(const std::filesystem::path &dir);

} // namespace ksynth::synth::bench
