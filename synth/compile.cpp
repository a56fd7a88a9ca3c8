#include "synth/compile.h"

#include "util/process.h"

#include <filesystem>
#include <regex>

namespace ksynth::synth {

namespace fs = std::filesystem;

std::optional<std::string> findNvcc(const std::string &requested) {
  if (requested == "none")
    return std::nullopt;
  if (!requested.empty())
    return requested;
  std::string p = util::findOnPath("nvcc");
  return p.empty() ? std::nullopt : std::optional<std::string>(p);
}

CompileResult compileCheck(const std::string &nvcc, const std::string &cuFile, double timeoutS) {
  CompileResult r;
  fs::path dir = fs::path(cuFile).parent_path();
  std::string obj = (dir / ".nvcc-candidate.o").string();
  util::ProcessResult pr = util::runProcess({nvcc, "-c", "--resource-usage", "-o", obj, cuFile}, timeoutS);
  std::error_code ec;
  fs::remove(obj, ec);
  r.ms = pr.ms;
  if (!pr.started) {
    r.status = CompileResult::Status::Skipped;
    r.note = "could not start " + nvcc;
    return r;
  }
  r.output = pr.output;
  // Paths in nvcc's messages: the candidate's file name only.
  std::string full = cuFile, base = fs::path(cuFile).filename().string();
  for (size_t p; (p = r.output.find(full)) != std::string::npos;)
    r.output.replace(p, full.size(), base);
  if (pr.timedOut) {
    r.status = CompileResult::Status::Skipped;
    r.note = "nvcc did not finish within " + std::to_string(static_cast<int>(timeoutS)) + " s";
    return r;
  }
  r.status = pr.ok() ? CompileResult::Status::Ok : CompileResult::Status::Failed;
  static const std::regex regs(R"(Used (\d+) registers)"), smem(R"((\d+) bytes smem)");
  std::smatch m;
  if (std::regex_search(r.output, m, regs))
    r.registers = std::stoi(m[1]);
  if (std::regex_search(r.output, m, smem))
    r.sharedBytes = std::stoi(m[1]);
  return r;
}

} // namespace ksynth::synth
