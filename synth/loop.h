// synth/ loop: counterexample-guided synthesis of one kernel for one spec.
//
//   round r: ask the model (the task, then every earlier reply with its feedback)
//            -> extract the candidate (problems become feedback)
//            -> nvcc compile check where nvcc exists (errors become feedback)
//            -> `ksynth verify CANDIDATE --spec SPEC --json` (tools/cli.h)
//            -> proven: stop; otherwise the replayed counterexamples and every
//               obligation's status become the next round's feedback.
//
// Everything is written to the run directory as it happens (Ctrl-C or a kill leaves every
// finished stage on disk; report.json is replaced atomically after each round):
//   run.json          what was asked: spec, rounds, provider, model (never a key)
//   kernel-run.json   `ksynth run` on the proven kernel (when LoopOptions::runWith is set)
//   transcript.jsonl  every model exchange (models/transcript.h)
//   round-N/          reply.md, candidate.cu, compile.txt, report.json (the verifier's
//                     JSON), verify.txt (its messages), proof/ (its proof bundle), feedback.txt
//   report.json       rounds, verdicts, obligations, tokens, cost, times per stage
//   kernel.cu, proof/ the proven kernel and its proof bundle (tools/proof.h), when one was proven
#pragma once

#include "models/client.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <ostream>
#include <string>

namespace ksynth::synth {

// Exit codes of `ksynth --spec SPEC --prove` (DESIGN's codes where they apply).
constexpr int kExitProven = 0;      // a kernel was proven
constexpr int kExitBudget = 1;      // the rounds ran out; the best candidate had a refuted obligation
constexpr int kExitInconclusive = 2; // the rounds ran out; the best candidate was refuted nowhere, unknown somewhere
constexpr int kExitUsage = 64;
constexpr int kExitMalformed = 65;  // the spec does not parse or is not well formed
constexpr int kExitModel = 69;      // the model could not be used (provider error, replay diverged/exhausted)
constexpr int kExitInternal = 70;
constexpr int kExitInterrupted = 130; // SIGINT: stopped between stages, directory consistent

struct LoopOptions {
  std::string specPath;
  int rounds = 5;
  std::string outDir;          // created if missing
  std::string nvcc;            // "" nvcc on PATH, "none" no compile check, else the path
  double verifyTimeoutS = 10;  // per solver query
  bool progress = true;        // progress lines on `out`
  std::ostream *out = nullptr; // default std::cout
  nlohmann::json runInfo;      // merged into run.json (provider, model, replay file, ...)
  std::string providerText;    // Client::describe(), for the report
  models::ModelConfig model;   // for cost estimates
  // Set (e.g. by a SIGINT handler) to stop before the next stage; the run directory is left
  // consistent with status "interrupted", and --resume continues it.
  const std::atomic<bool> *stop = nullptr;
  // The ksynth executable: a proven kernel is then run with `ksynth run` (the GPU when there
  // is one, else the interpreter; kernel-run.json in the run directory). Empty: not run.
  std::string runWith;
};

struct LoopResult {
  int exitCode = kExitInternal;
  nlohmann::json report; // what report.json holds
  std::string error;     // why the run stopped early (model error, bad spec), else ""
};

LoopResult runLoop(const LoopOptions &options, models::Client &client);

} // namespace ksynth::synth
