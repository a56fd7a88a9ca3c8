// synth/ loop: counterexample-guided synthesis of one kernel for one spec.
//
//   round r: ask the model K times at once (--samples K; the task, then the history of
//            earlier rounds) -> each reply checked in turn (synth/candidate.h: extract,
//            nvcc compile check, `ksynth verify CANDIDATE --spec SPEC --json`)
//            -> a proven sample: stop (the lowest-numbered proven one); otherwise the
//               round's best candidate (proven > bounded > unknown > refuted, then most
//               obligations proven, then the lowest sample) and its feedback become the
//               history every sample of the next round continues from.
//   optimize j (--optimize R, after a proven kernel): ask for a faster variant of the kernel
//            kept so far; a variant replaces it only when it is proven again and its
//            `ksynth run` on a GPU has a lower median time. Without a GPU nothing is timed:
//            proven variants are listed, not compared, and the kernel kept stays.
//
// Samples: all K requests of a round are identical conversations (the shared history) whose
// last user turn says which attempt it is (prompts/sample.txt); they go out in parallel
// threads (models::Client is thread-safe) and are recorded in the transcript with their
// sample index (0-based: sample-M/ is transcript sample M-1). Verification runs on this
// thread, in sample order, as the replies arrive: the verifier is not shared across threads.
//
// Everything is written to the run directory as it happens (Ctrl-C or a kill leaves every
// finished stage on disk; report.json is replaced atomically after each round):
//   run.json          what was asked: spec, rounds, samples, optimize, provider, model (never a key)
//   kernel-run.json   `ksynth run` on the kept kernel (when LoopOptions::runWith is set)
//   transcript.jsonl  every model exchange (models/transcript.h)
//   round-N/          reply.md, candidate.cu, compile.txt, report.json (the verifier's
//                     JSON), verify.txt (its messages), proof/ (its proof bundle), feedback.txt
//                     -- with K > 1 samples, each sample's in round-N/sample-M/, and
//                     round-N/feedback.txt is what the next round was sent (the best's)
//   optimize-J/       optimize round J's variant: the same files, kernel-run.json when proven
//   report.json       rounds, verdicts, obligations, tokens, cost, times per stage, optimize
//   kernel.cu, proof/ the kept kernel and its proof bundle (bundle/bundle.h), when one was proven
#pragma once

#include "models/client.h"
#include "util/exit_codes.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <ostream>
#include <string>

namespace ksynth::synth {

// Exit codes of `ksynth --spec SPEC --prove` (util/exit_codes.h).
using ksynth::kExitBudget, ksynth::kExitInconclusive, ksynth::kExitInternal, ksynth::kExitInterrupted,
    ksynth::kExitMalformed, ksynth::kExitModel, ksynth::kExitProven, ksynth::kExitUsage;

struct LoopOptions {
  std::string specPath;
  int rounds = 5;
  int samples = 1;             // candidates per round, requested in parallel
  int optimize = 0;            // rounds asking for a faster variant after a proven kernel
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
