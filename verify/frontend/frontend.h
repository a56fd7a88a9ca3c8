// The clang frontend: parses a CUDA file with clang 19 (device side only, ksynth's prelude
// instead of the CUDA headers) and lowers every __global__ kernel to KIR, inlining device
// functions. The only component that includes clang headers.
#pragma once

#include "verify/ir/kir.h"

#include <string>
#include <vector>

namespace ksynth::frontend {

struct Diagnostic {
  std::string file;
  unsigned line = 0, col = 0;
  std::string severity; // "error", "warning", "note"
  std::string message;
};

struct Options {
  std::vector<std::string> defines;     // NAME or NAME=VALUE
  std::vector<std::string> undefines;   // NAME
  std::vector<std::string> includeDirs;
  std::vector<std::string> systemIncludeDirs;
  // The CUDA toolkit whose host-library headers (cublas_v2.h, cudnn.h, ...) are read before
  // ksynth's own declarations of them: a folder with include/, "none" for ksynth's alone, or
  // empty to look for one (DESIGN.md, "Headers").
  std::string cudaPath;
  // Template instances to make beside the file's own (`saxpy<int>`: `--kernel 'saxpy<int>'` for a
  // template kernel that the file does not instantiate so), as the launch line's kernel= makes them.
  std::vector<std::string> instances;
};

// A CUDA toolkit found for the file's host-library headers: its include folder (empty: none)
// and its CUDART_VERSION.
struct CudaToolkit {
  std::string includeDir;
  int version = 0;
};
// `cudaPath` as Options::cudaPath. Looked for: $CUDA_PATH, $CUDA_HOME, the toolkit of the
// nvcc on PATH, /usr/local/cuda; a folder counts when include/cuda_runtime_api.h names a
// CUDART_VERSION.
CudaToolkit findCudaToolkit(const std::string &cudaPath);

// Limits on what the frontend reads (DESIGN.md, "Limits"); past them the file is malformed
// (exit 65) with an error that names the limit and the line.
inline constexpr unsigned kMaxNesting = 1000;           // statements and expressions, nested
inline constexpr size_t kMaxLiteralChars = 1000;        // one numeric literal
inline constexpr size_t kMaxFileBytes = 32u << 20;      // a kernel file

// A kernel's launches in the file's host code (`k<<<grid, block>>>(...)`): per dimension the
// constant every launch gives (computed as frontend.cpp's LaunchFinder says), "1" where the launches leave it out of a dim3 (or pass an
// integer), or "" where it is not one constant.
struct HostLaunch {
  std::vector<std::string> grid, block;
  // Per kernel parameter: the integer every launch passes to it (an integer parameter), or "".
  std::vector<std::string> args;
  unsigned line = 0; // the first launch
  unsigned count = 0;
};

struct ParseResult {
  bool parsed = false;            // false: clang reported errors (in clangOutput)
  std::string clangOutput;        // clang's own diagnostics, as clang prints them
  std::string toolkitInclude;     // the CUDA toolkit's include folder the parse used, or empty
  std::vector<std::string> headerNotes; // how the headers were read, where it is not the usual way
  std::vector<ir::Kernel> kernels;
  // Per kernel (same order): constructs that could not be modelled, ignored annotations.
  std::vector<std::vector<Diagnostic>> notes;
  // Template kernels that the file never instantiates (no explicit instantiation, no use,
  // no `kernel=NAME<ARGS>` on the launch line): not checked, and named in the error.
  std::vector<std::string> uninstantiated;
  // Per kernel (same order): its host-code launches; count == 0 if there are none.
  std::vector<HostLaunch> hostLaunches;
};

ParseResult parseFile(const std::string &path, const Options &opts);
ParseResult parseSource(const std::string &code, const std::string &fileName,
                        const Options &opts);

// The embedded prelude text (for `ksynth --print-prelude` and tests).
const char *preludeText();

} // namespace ksynth::frontend
