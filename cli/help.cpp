// `ksynth help` and the usage lines of `ksynth verify` and `ksynth --spec ... --prove`.
#include "cli/commands.h"

#include "util/exit_codes.h"
#include "util/version.h"
#include "verify/driver/report.h"

namespace ksynth::cli {

int usage(const std::string &msg, std::ostream &errs) {
  errs << "ksynth: error: " << msg << "\n"
            << "usage: ksynth verify FILE.cu [--spec SPEC.smt] [--kernel NAME] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]]\n"
            << "                     [-D NAME=VALUE] [-U NAME] [-I DIR] [-isystem DIR] [--cuda-path DIR|none]\n"
            << "                     [--assume EXPR] [--checks LIST]\n"
            << "                     [--json] [--sarif FILE] [--dump-smt DIR] [--dump-kir] [--stats] [--timeout S] [--query-timeout S]\n"
            << "       ksynth spec SPEC.smt [--print | --explain] [--json]\n"
            << "run 'ksynth help' for more\n";
  return kExitUsage;
}

const char *const kProveUsage =
    "usage: ksynth --spec SPEC.smt --prove [--provider anthropic|openai|openai-compatible|replay] [--model ID|PRESET]\n"
    "                                [--rounds N] [--samples K] [--optimize R] [--out DIR] [--replay FILE]\n"
    "                                [--resume DIR] [--quiet] [--json]\n"
    "                                [--nvcc PATH|none] [--no-run] [--timeout S] [--max-tokens N]\n";

void printProveHelp(std::ostream &out) {
  out << "\nksynth --spec SPEC.smt --prove [options]   synthesise a kernel with a language model and prove it\n"
      << "  --provider NAME      anthropic (ANTHROPIC_API_KEY), openai (OPENAI_API_KEY), openai-compatible\n"
      << "                       (OPENAI_BASE_URL), replay (offline: the bundled authored transcript of the\n"
      << "                       spec, or --replay FILE)\n"
      << "  --model ID|PRESET    model id or preset name (models/presets; default claude-sonnet-4-5 / gpt-5)\n"
      << "  --rounds N           rounds of candidate and feedback (5)\n"
      << "  --samples K          independent candidates per round, requested in parallel (1); the lowest-numbered\n"
      << "                       proven one is kept, else the round's best is what the next round continues from\n"
      << "  --optimize R         after a proven kernel, R rounds asking for a faster variant (0); a variant replaces\n"
      << "                       the kernel only if proven again and timed faster on a GPU (no GPU: not compared)\n"
      << "  --out DIR            run directory (default out/SPEC/TIMESTAMP): transcript, every candidate with\n"
      << "                       its report, kernel.cu, proof/, report.json\n"
      << "  --resume DIR         continue an interrupted run; recorded replies are not requested again\n"
      << "  --nvcc PATH|none     compile check (default: nvcc on PATH, skipped without one)\n"
      << "  --no-run             do not run the proven kernel (default: 'ksynth run' on it: the GPU when\n"
      << "                       there is one, else the interpreter; kernel-run.json in the run directory)\n"
      << "  --quiet              only the result line      --json   the report as one JSON object\n"
      << "Exit: 0 proven kernel, 1 rounds ran out (best candidate refuted), 2 rounds ran out (best candidate\n"
      << "unknown), 64 usage, 65 malformed spec, 69 the model could not be used (provider error, replay\n"
      << "diverged or exhausted), 70 internal error, 130 interrupted (Ctrl-C; --resume DIR continues).\n";
}

void printHelp(std::ostream &out) {
  out << "ksynth " << util::version() << " — formally verified GPU kernels\n\n"
            << "ksynth verify FILE.cu [options]   prove race freedom, barrier uniformity, bounds, overflow\n"
            << "  --spec SPEC.smt      bind the kernel to a spec: its tensors, dims and scalars become the\n"
            << "                       kernel's parameters' sizes and preconditions; adds coverage (every\n"
            << "                       output element stored once) and equivalence (the spec's value):\n"
            << "                       tested at small sizes (a failure refutes), then proven over\n"
            << "                       symbolic sizes where ksynth can\n"
            << "  --no-tests           skip those tests (the proof alone decides; for checking ksynth)\n"
            << "  --kernel NAME        check only this __global__ kernel (default: all in the file)\n"
            << "  --block X[,Y[,Z]]    block shape (also --blockDim=X or --blockDim=[X,Y]); omitted: symbolic\n"
            << "  --grid X[,Y[,Z]]     grid shape (also --gridDim=...); omitted: symbolic\n"
            << "  -D NAME[=VALUE]      define a macro (--define-macro)   -U NAME   undefine one (--undefine-macro)\n"
            << "  -I DIR, -isystem DIR add an include directory (--include-path), a system one\n"
            << "  --cuda-path DIR      the CUDA toolkit whose host-library headers (cublas_v2.h, cudnn.h, ...)\n"
            << "                       are read; default: $CUDA_PATH, $CUDA_HOME, nvcc's, /usr/local/cuda;\n"
            << "                       none: ksynth's own declarations. The CUDA runtime, fp16/bf16,\n"
            << "                       cooperative groups, mma.h, curand_kernel.h and cub are always ksynth's\n"
            << "  --assume EXPR        precondition over scalar parameters and __len(p), e.g. 'n <= 4096'\n"
            << "  --checks LIST        race,barrier,bounds,overflow,assert,warp,align[,coverage,equivalence with --spec]\n"
            << "                       (default: all)\n"
            << "  --json               one JSON object on stdout      --sarif FILE   SARIF 2.1.0 report\n"
            << "  --dump-smt DIR       write every query as an SMT-LIB2 file\n"
            << "  --proof-dir DIR      write a proof bundle (proof.json, kernel, spec, queries) that\n"
            << "                       'ksynth check-proof DIR' re-checks with the z3 and cvc5 executables\n"
            << "  --bound N            bounded fallback for what the proof leaves open: every dim <= N (6;\n"
            << "                       0: off), within --bound-budget S (10); --bounded-only: no proof\n"
            << "  --dump-kir           print the kernel IR\n"
            << "  --timeout S          the whole command's limit (600): past it, unknown (exit 2) within a second\n"
            << "  --query-timeout S    each solver query's limit (10)\n"
            << "  --stats              the solver queries on stderr: how many, their answers, time, the slowest\n\n"
            << "A kernel's own '// ksynth:launch grid=(...) block=(...)' line is used when no flag overrides it.\n\n"
            << "ksynth spec SPEC.smt  parse a spec and check it is well formed (assumptions satisfiable, ranges\n"
            << "                     of max-over/min-over non-empty, reads in bounds); --print the canonical\n"
            << "                     text, --explain a plain-language description, --json a summary\n"
            << "ksynth check-proof DIR [--solver z3|cvc5|all] [--kernel F] [--spec F] [--timeout S] [--jobs N]\n"
            << "                     re-check a proof bundle: hashes, and every query of every proven\n"
            << "                     obligation unsat by the solver executables (exit 0 ok, 1 failed);\n"
            << "                     N solver processes at once (default: one per hardware thread);\n"
            << "                     --timeout-for [SOLVER:]QUERY_FILE=S: that query's own limit, for one solver\n"
            << "                     or both (repeatable); --skip SOLVER:QUERY_FILE: that solver is not asked\n"
            << "                     about that query (the other must answer it unsat; repeatable)\n"
            << "ksynth run FILE.cu --spec SPEC.smt [--size NAME=VALUE ...] [--backend gpu|cpu] [--repeat R]\n"
            << "                     verify, compile with nvcc, run on fresh seeded inputs with outputs poisoned\n"
            << "                     (NaN), compare every repeat with the spec (double precision), time on the\n"
            << "                     GPU (median of R; CUDA events, L2 flushed); without a GPU the concrete\n"
            << "                     interpreter runs it, not timed. Refuses an unproven kernel unless\n"
            << "                     --unverified (--no-proof: not even verified first, as a plain test harness\n"
            << "                     runs). Also --warmup W --seed S --json --arch sm_XX --nvcc PATH|none\n"
            << "                     --timeout S (watchdog, 120) --rtol X --samples N (compared elements per\n"
            << "                     output and run when not all: 4096) --keep DIR --kernel NAME -D -I\n"
            << "                     exit 0 outputs agree, 1 wrong/failed/refuted, 2 not run, 64, 65, 70\n"
            << "Exit: 0 proven, 1 refuted, 2 unknown or bounded, 64 usage, 65 malformed input, 70 internal error.\n"
            << "Model: " << driver::kModel << ".\n";
}

} // namespace ksynth::cli
