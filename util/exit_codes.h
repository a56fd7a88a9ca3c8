// ksynth's exit codes (DESIGN.md "CLI contract"), defined once for every command.
#pragma once

namespace ksynth {

enum ExitCode : int {
  kExitProven = 0,       // verify: every obligation proven; prove: a kernel was proven
  kExitRefuted = 1,      // verify: a replayed counterexample; prove: the rounds ran out
  kExitUnknown = 2,      // unknown, unsupported or bounded only
  kExitUsage = 64,       // usage or configuration error
  kExitMalformed = 65,   // the kernel or the spec does not parse
  kExitUnavailable = 69, // the model service could not be used (synthesis)
  kExitInternal = 70,    // a ksynth bug or an environment failure (cannot write a file)
  kExitInterrupted = 130 // Ctrl-C; the run directory stays resumable
};

// `ksynth run`: the same numbers, named for what a run means.
inline constexpr int kExitRunOk = kExitProven, kExitRunWrong = kExitRefuted, kExitRunNotRun = kExitUnknown;
// `ksynth --spec ... --prove`: 1 the rounds ran out with the best candidate refuted, 2 with it
// unknown (refuted nowhere), 69 the model could not be used.
inline constexpr int kExitBudget = kExitRefuted, kExitInconclusive = kExitUnknown, kExitModel = kExitUnavailable;
// `ksynth check-proof`: 0 every query re-checks and the bundle records a proof; 2 it
// re-checks but records no proof; 1 something failed.
inline constexpr int kExitCheckOk = 0, kExitCheckFailed = 1, kExitCheckNotProven = 2;
// `ksynth bench` (and `bench report`): 0 every sample finished (whatever its verdicts: a
// measurement, not a proof); 69 samples left unfinished because the model could not be used,
// 70 for another failure, 130 interrupted (--resume continues).
inline constexpr int kExitOk = 0;

} // namespace ksynth
