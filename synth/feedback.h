// synth/ feedback: a candidate's verification report (`ksynth verify --json`) turned into
// the words a kernel engineer would use — which threads, which element, which sizes, which
// line — for the model, plus every obligation's status; and the one-line summary the
// progress output shows.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ksynth::synth {

// What verifying one candidate produced.
struct CheckOutcome {
  int exitCode = -1;     // of `ksynth verify` (0 proven, 1 refuted, 2 unknown, 64/65 input errors)
  nlohmann::json report; // its --json object; null when it printed none
  std::string errors;    // what it printed on stderr, candidate path shortened
  std::string verdict() const; // proven | refuted | unknown | malformed | error
  int proven() const;          // obligations proven
  int total() const;           // obligations decided or not
  int refuted() const;
};

// "race ✓ barrier ✓ bounds ✗ overflow ✓ coverage ? equivalence ? (line 4: thread 1 of
// block 0 reads A[1], N=1)"; "all obligations proven"; "does not parse (...)".
std::string progressSummary(const CheckOutcome &c);

// The failed obligations in detail (counterexamples with the source lines of `code`),
// for the feedback prompt.
std::string failureDetails(const CheckOutcome &c, const std::string &code);

// One line per obligation: "  race.C: refuted (line 5)".
std::string obligationTable(const CheckOutcome &c);

// Names of the obligations not proven, with status: ["race.C: refuted", ...].
std::vector<std::string> failingObligations(const CheckOutcome &c);

} // namespace ksynth::synth
