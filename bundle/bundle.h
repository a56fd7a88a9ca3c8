// Proof bundles: written by `ksynth verify ... --proof-dir DIR` (verify/driver), re-checked
// by `ksynth check-proof DIR` (bundle/check.h). A bundle is a directory:
//   proof.json      what was verified and how: the kernel's and spec's SHA-256, ksynth's
//                   version and git revision, Z3's version, the command, the model statement
//                   and assumptions, and per kernel and obligation its status, time, reason and
//                   the query files whose `unsat` answers it rests on (each with its SHA-256);
//                   last, the SHA-256 of proof.json itself without that field (integrity
//                   against accidents and edits, not a signature).
//   kernel.cu       the kernel as verified;  spec.smt  the spec, if there was one
//   queries/*.smt2  self-contained SMT-LIB2 scripts; a header comment says what each encodes
// The re-check recomputes every hash and runs the z3 and cvc5 *executables* (separate
// processes, not the library ksynth links) on every query of every proven obligation; each
// must answer `unsat`. Bounded, unknown and refuted obligations are shown as recorded and are
// never upgraded. Exit status: 0 everything re-checks and the recorded verdict is proven;
// 2 everything re-checks but the recorded verdict is not proven; 1 something failed (a hash,
// a missing file, a solver answering sat or unknown, a solver missing); 64 usage.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ksynth::bundle {

// The hash that closes proof.json: over its canonical dump without the field itself.
std::string selfHash(nlohmann::json proof);

// Writes DIR/proof.json, DIR/kernel.cu and DIR/spec.smt (when specPath is not empty) from a
// `verify --json` report whose obligations name their query files (relative to DIR/queries,
// already written there). False, with why, when something cannot be written or a named
// query file is missing.
bool writeProofBundle(const std::string &dir, const nlohmann::json &report, const std::string &kernelPath,
                      const std::string &specPath, const std::vector<std::string> &command, std::string &why);

} // namespace ksynth::bundle
