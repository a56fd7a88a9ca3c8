// synth/ candidate: one model reply checked in its own directory — extract the kernel
// (problems become feedback), nvcc compile check where nvcc exists, then `ksynth verify
// CANDIDATE --spec SPEC --json` (verify/driver/driver.h, called directly) with its proof bundle — and the `ksynth run`
// of a proven kernel. The loop (loop.h) decides what to ask and what to keep; this file
// only says what one candidate is. Verification runs on the calling thread.
#pragma once

#include "synth/feedback.h"

#include "models/client.h"
#include "verify/spec/spec.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::synth {

// What every candidate of a run is checked against.
struct CheckContext {
  const spec::Spec *spec = nullptr;
  std::string specAbs;            // absolute path of the spec file
  std::optional<std::string> nvcc; // none: no compile check
  double verifyTimeoutS = 10;
};

struct Candidate {
  int round = 0;      // the synthesis (or optimize) round
  int sample = 0;     // 1..K within the round
  std::string label;  // "3" (one sample per round), "1.2" (round 1, sample 2), "variant 1"
  std::filesystem::path dir;
  std::string specName;
  std::string reply;  // the model's text
  std::string code;   // the extracted kernel ("" when extraction failed)
  std::string stage;  // where it stopped: model, extract, compile, verify
  bool checked = false;
  CheckOutcome check;
  // Why it is not proven, in the words of the feedback templates: `problems` (extract) or
  // `details` and `obligations` (compile, verify). Empty for a proven candidate.
  std::string problems, details, obligations;
  std::string progress; // the progress text after "round N  candidate L  "
  nlohmann::json record; // its entry in report.json
  double compileMs = 0, verifyMs = 0;

  bool proven() const { return checked && check.verdict() == "proven"; }
  // Ranking for "best": proven > bounded > unknown only > refuted; then obligations proven.
  int rank() const;
  // The next request's feedback from the templates feedback / extract_feedback ("" when
  // proven or when no reply arrived).
  std::string feedback() const;
};

// Checks `reply` in `dir` (created): reply.md, candidate.cu, compile.txt, report.json,
// verify.txt, proof/. A reply cut off by the token limit is checked as a candidate with that
// problem. Never throws for the model's input; a verifier exception is an internal error
// (exit 70 in check.exitCode), never a verdict.
Candidate checkReply(const CheckContext &ctx, const models::Reply &reply, const std::filesystem::path &dir,
                     const std::string &label);

// `ksynth run KERNEL --spec SPEC --json` with the executable `ksynth`: on the GPU when there
// is one (timed), else the interpreter (not timed). Writes `runJson` when the run printed
// its JSON. Returns the summary for report.json: result, backend, file, and median_ms /
// gb_per_s / gflop_per_s only when it was timed; `line` gets the progress line.
nlohmann::json runKernel(const std::string &ksynth, const std::filesystem::path &kernel, const std::string &specPath,
                         const std::string &nvccOption, const std::filesystem::path &runJson, std::string &line);

// The JSON object `ksynth run --json` printed, found in its output (stderr lines around it);
// null when there is none.
nlohmann::json runJsonIn(const std::string &output);

// The median time of a run summary, when the run was timed on a GPU.
std::optional<double> timedMs(const nlohmann::json &runSummary);

// Written to a temporary name and renamed, so a reader (or a kill) never sees half a file.
bool writeText(const std::filesystem::path &path, const std::string &text);

} // namespace ksynth::synth
