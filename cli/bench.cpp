// `ksynth bench`: the synthesis loop over a suite of specs, K independent samples each, in
// shards (in this process, as local processes with --jobs N, or as a Slurm job array with
// --slurm); resumable; the metrics of synth/bench_metrics.h; `ksynth bench report RUN...`
// writes the HTML and Markdown report. synth/bench.h describes the run directory.
#include "cli/commands.h"
#include "cli/options.h"

#include "synth/bench.h"
#include "synth/bench_metrics.h"
#include "synth/bench_report.h"
#include "util/exit_codes.h"
#include "util/files.h"
#include "util/process.h"
#include "util/sha256.h"
#include "util/version.h"
#include "verify/spec/parser.h"

#include "models/transcript.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace ksynth::cli {

namespace fs = std::filesystem;
using nlohmann::json;
namespace bench = synth::bench;

namespace {

const char *const kBenchUsage =
    "usage: ksynth bench [--specs] DIR|FILE.smt [--only NAME,...] [--provider NAME] [--model ID] [--samples K]\n"
    "                    [--rounds R] --out RUN [--jobs N | --slurm [--slurm-option OPT ...]] [--label TEXT]\n"
    "                    [--note TEXT] [--replay-run OLD_RUN] [--baseline FILE.jsonl] [--nvcc PATH|none]\n"
    "                    [--timeout S] [--test-timeout S] [--max-tokens N] [--json] [--quiet]\n"
    "       ksynth bench --resume RUN [--jobs N | --slurm ...] [--json] [--quiet]\n"
    "       ksynth bench report RUN [RUN ...] [--out DIR]\n";

int benchUsage(std::ostream &err, const std::string &msg) {
  err << "ksynth: error: " << msg << "\n" << kBenchUsage;
  return kExitUsage;
}

json readJson(const fs::path &p) {
  std::string text;
  if (!util::readFile(p, text))
    return json();
  return json::parse(text, nullptr, false);
}

std::string selfExe() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("ksynth") : self.string();
}

std::string utcNow() { return models::utcNow(); }

struct BenchArgs {
  std::vector<std::string> specs, only, slurmOptions;
  std::string provider, model, out, resume, replayRun, baseline, nvcc, label, note, shard;
  int samples = 1, rounds = 5, jobs = 1, maxTokens = 0;
  double timeoutS = 10, testTimeoutS = 120;
  bool slurm = false, json = false, quiet = false;
  std::set<std::string> given; // the options given, for --resume's conflicts
};

std::vector<std::string> splitComma(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

std::optional<int> parseBenchArgs(const std::vector<std::string> &args, BenchArgs &ba, std::ostream &err) {
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    std::string flag = a.substr(0, a.find('='));
    auto need = [&](std::string &dest) {
      auto v = opt.value(flag);
      if (!v || v->empty())
        return false;
      dest = *v;
      return true;
    };
    std::string v;
    if (opt.isOption())
      ba.given.insert(flag);
    if (a == "--slurm") {
      ba.slurm = true;
    } else if (a == "--json") {
      ba.json = true;
    } else if (a == "--quiet" || a == "-q") {
      ba.quiet = true;
    } else if (flag == "--specs" || flag == "--only" || flag == "--slurm-option") {
      if (!need(v))
        return benchUsage(err, flag + " needs a value");
      if (flag == "--specs")
        ba.specs.push_back(v);
      else if (flag == "--only")
        for (const std::string &n : splitComma(v))
          ba.only.push_back(n);
      else
        ba.slurmOptions.push_back(v);
    } else if (flag == "--provider" || flag == "--model" || flag == "--out" || flag == "--resume" ||
               flag == "--replay-run" || flag == "--baseline" || flag == "--nvcc" || flag == "--label" ||
               flag == "--note" || flag == "--shard") {
      if (!need(v))
        return benchUsage(err, flag + " needs a value");
      std::string *dest = flag == "--provider"     ? &ba.provider
                          : flag == "--model"      ? &ba.model
                          : flag == "--out"        ? &ba.out
                          : flag == "--resume"     ? &ba.resume
                          : flag == "--replay-run" ? &ba.replayRun
                          : flag == "--baseline"   ? &ba.baseline
                          : flag == "--nvcc"       ? &ba.nvcc
                          : flag == "--label"      ? &ba.label
                          : flag == "--note"       ? &ba.note
                                                   : &ba.shard;
      *dest = v;
    } else if (flag == "--samples" || flag == "--rounds" || flag == "--jobs" || flag == "--max-tokens") {
      if (!need(v))
        return benchUsage(err, flag + " needs a number");
      long long hi = flag == "--samples" ? 1000 : flag == "--rounds" ? 100 : flag == "--jobs" ? 4096 : 1000000000;
      std::optional<long long> n = parseInteger(v, 1, hi);
      if (!n)
        return benchUsage(err, flag + " needs an integer from 1 to " + std::to_string(hi) + " (got '" + v + "')");
      (flag == "--samples" ? ba.samples : flag == "--rounds" ? ba.rounds : flag == "--jobs" ? ba.jobs : ba.maxTokens) =
          static_cast<int>(*n);
    } else if (flag == "--timeout" || flag == "--test-timeout") {
      if (!need(v))
        return benchUsage(err, flag + " needs a number of seconds");
      std::optional<double> n = parseNumber(v, 1e-3, 1e6);
      if (!n)
        return benchUsage(err, flag + " needs a positive number of seconds (got '" + v + "')");
      (flag == "--timeout" ? ba.timeoutS : ba.testTimeoutS) = *n;
    } else if (!opt.isOption()) {
      ba.specs.push_back(a); // `ksynth bench SUITE`: as --specs SUITE
    } else {
      return benchUsage(err, "unknown option '" + a + "' for bench");
    }
  }
  return std::nullopt;
}

// The spec files of the suite: every .smt in each --specs folder (not below), or the file.
std::optional<int> collectSpecs(const BenchArgs &ba, json &specs, std::ostream &err) {
  std::vector<fs::path> files;
  for (const std::string &s : ba.specs) {
    std::error_code ec;
    if (fs::is_directory(s, ec)) {
      std::vector<fs::path> here;
      for (const auto &e : fs::directory_iterator(s, ec))
        if (e.path().extension() == ".smt")
          here.push_back(e.path());
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    } else if (fs::is_regular_file(s, ec)) {
      files.push_back(s);
    } else {
      err << "ksynth: error: --specs '" << s << "' is neither a folder nor a spec file\n";
      return kExitUsage;
    }
  }
  std::set<std::string> seen, wanted(ba.only.begin(), ba.only.end());
  bool malformed = false;
  for (const fs::path &f : files) {
    spec::ParseResult pr = spec::parseFile(f.string());
    if (!pr.spec) {
      for (const spec::Diagnostic &d : pr.errors)
        err << spec::format(f.string(), d) << "\n";
      malformed = true;
      continue;
    }
    const std::string &name = pr.spec->name;
    if (!wanted.empty() && !wanted.count(name))
      continue;
    if (!seen.insert(name).second) {
      err << "ksynth: error: two spec files define the spec '" << name << "' (" << f.string() << ")\n";
      return kExitUsage;
    }
    std::string text;
    util::readFile(f, text);
    specs.push_back({{"name", name}, {"file", fs::absolute(f).lexically_normal().string()}, {"sha256", util::sha256Hex(text)}});
  }
  if (malformed) {
    err << "ksynth: error: the suite has malformed specs (above)\n";
    return kExitMalformed;
  }
  for (const std::string &w : wanted)
    if (!seen.count(w)) {
      err << "ksynth: error: --only names '" << w << "', which no spec of the suite defines\n";
      return kExitUsage;
    }
  if (specs.empty()) {
    err << "ksynth: error: no spec in the suite (--specs)\n";
    return kExitUsage;
  }
  return std::nullopt;
}

// bench.json for a new run: the suite, the model and how it is asked.
std::optional<int> newBench(BenchArgs &ba, json &bj, std::ostream &err) {
  if (ba.specs.empty())
    return benchUsage(err, "bench needs --specs DIR (a folder of .smt specs) or --resume RUN");
  if (ba.out.empty())
    return benchUsage(err, "bench needs --out RUN (the run directory)");
  if (fs::exists(fs::path(ba.out) / "bench.json")) {
    err << "ksynth: error: '" << ba.out << "' already holds a bench run; continue it with --resume " << ba.out
        << " or choose another --out\n";
    return kExitUsage;
  }
  json specs = json::array();
  if (std::optional<int> code = collectSpecs(ba, specs, err))
    return code;
  std::string source = "model";
  if (!ba.replayRun.empty()) {
    if (!ba.provider.empty() && ba.provider != "replay")
      return benchUsage(err, "--replay-run replays recorded transcripts: it takes no --provider other than replay");
    ba.provider = "replay";
    source = "replay";
    json old = readJson(fs::path(ba.replayRun) / "bench.json");
    if (!old.is_object()) {
      err << "ksynth: error: --replay-run '" << ba.replayRun << "' is not a bench run (no readable bench.json)\n";
      return kExitUsage;
    }
    if (ba.model.empty() && old.contains("model") && old["model"].is_string())
      ba.model = old["model"].get<std::string>();
    for (const json &s : specs)
      for (int k = 1; k <= ba.samples; ++k) {
        fs::path t = bench::taskDir(ba.replayRun, {s["name"].get<std::string>(), s["file"].get<std::string>(), k}) / "transcript.jsonl";
        if (!fs::exists(t)) {
          err << "ksynth: error: --replay-run: no recorded transcript for spec '" << s["name"].get<std::string>()
              << "' sample " << k << " (" << t.string() << ")\n";
          return kExitUsage;
        }
      }
  } else {
    if (std::optional<int> code = resolveProvider(ba.provider, ba.model, err))
      return code;
    if (ba.provider == "replay") {
      source = "fixture";
      std::vector<std::string> have = bundledSpecs(), missing;
      for (const json &s : specs)
        if (std::find(have.begin(), have.end(), s["name"].get<std::string>()) == have.end())
          missing.push_back(s["name"]);
      if (!missing.empty()) {
        std::string m, h;
        for (const std::string &n : missing)
          m += (m.empty() ? "" : ", ") + n;
        for (const std::string &n : have)
          h += (h.empty() ? "" : ",") + n;
        err << "ksynth: error: --provider replay without --replay-run replays the bundled authored transcripts, "
               "and these specs have none: "
            << m << " (--only " << h << ")\n";
        return kExitUsage;
      }
    }
  }
  json baseline = nullptr;
  if (!ba.baseline.empty()) {
    std::ifstream in(ba.baseline);
    if (!in) {
      err << "ksynth: error: cannot read --baseline '" << ba.baseline << "'\n";
      return kExitUsage;
    }
    baseline = json::array();
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos)
        continue;
      json j = json::parse(line, nullptr, false);
      if (!j.is_object() || !j.contains("op") || !j.contains("sizes") || !j.contains("median_ms")) {
        err << "ksynth: error: " << ba.baseline << ":" << n
            << ": not a baseline line (a JSON object with op, sizes and median_ms, as bench/gpu_baselines.py prints)\n";
        return kExitUsage;
      }
      baseline.push_back(j);
    }
  }
  std::string endpoint;
  if (ba.provider == "anthropic")
    endpoint = envOr("ANTHROPIC_BASE_URL");
  else if (ba.provider == "openai" || ba.provider == "openai-compatible")
    endpoint = envOr("OPENAI_BASE_URL");
  bj = {{"tool", "ksynth"},
        {"command", "bench"},
        {"version", util::version()},
        {"git", util::gitRevision()},
        {"specs", specs},
        {"samples", ba.samples},
        {"rounds", ba.rounds},
        {"provider", ba.provider},
        {"model", ba.model.empty() ? json(nullptr) : json(ba.model)},
        {"source", source},
        {"endpoint", endpoint},
        {"label", ba.label},
        {"note", ba.note},
        {"verify_timeout_s", ba.timeoutS},
        {"test_timeout_s", ba.testTimeoutS},
        {"nvcc", ba.nvcc.empty() ? json(nullptr) : json(ba.nvcc)},
        {"max_tokens", ba.maxTokens > 0 ? json(ba.maxTokens) : json(nullptr)},
        {"baseline", baseline},
        {"replayed_from", ba.replayRun.empty() ? "" : fs::absolute(ba.replayRun).lexically_normal().string()},
        {"run_dir", fs::absolute(ba.out).lexically_normal().string()},
        {"started", utcNow()}};
  std::error_code ec;
  fs::create_directories(fs::path(ba.out) / "tasks", ec);
  if (ec || !util::writeFileAtomic(fs::path(ba.out) / "bench.json", bj.dump(2) + "\n")) {
    err << "ksynth: error: cannot create the run directory '" << ba.out << "'\n";
    return kExitUsage;
  }
  return std::nullopt;
}

// --resume RUN: its bench.json; what shapes the measurement cannot change.
std::optional<int> resumeBench(BenchArgs &ba, json &bj, std::ostream &err) {
  bj = readJson(fs::path(ba.resume) / "bench.json");
  if (!bj.is_object() || bj.value("command", "") != "bench") {
    err << "ksynth: error: '" << ba.resume << "' is not a bench run directory (no readable bench.json)\n";
    return kExitUsage;
  }
  for (const char *f : {"--specs", "--only", "--provider", "--model", "--samples", "--rounds", "--replay-run",
                        "--baseline", "--nvcc", "--timeout", "--test-timeout", "--max-tokens", "--label", "--note", "--out"})
    if (ba.given.count(f) || (std::string(f) == "--specs" && !ba.specs.empty()))
      return benchUsage(err, std::string("--resume continues the run as it was asked: leave out ") +
                                 (ba.given.count(f) ? f : "the suite"));
  for (const json &s : bj["specs"]) {
    std::string text;
    if (!util::readFile(s.value("file", ""), text) || util::sha256Hex(text) != s.value("sha256", "")) {
      err << "ksynth: error: the spec " << s.value("file", "") << " changed (or is gone) since the run started; "
          << "a resumed run must measure what it started measuring\n";
      return kExitUsage;
    }
  }
  ba.out = ba.resume;
  return std::nullopt;
}

// What a sample's loop is asked: `ksynth --spec ... --prove` for a new one, --resume for one
// that started.
std::vector<std::string> proveArgs(const json &bj, const bench::Task &t, const fs::path &dir) {
  if (fs::exists(dir / "run.json"))
    return {"--resume", dir.string(), "--quiet"};
  std::vector<std::string> a = {"--spec",  t.specFile, "--prove", "--rounds", std::to_string(bj.value("rounds", 5)),
                                "--samples", "1", "--out", dir.string(), "--quiet"};
  std::ostringstream to;
  to << bj.value("verify_timeout_s", 10.0);
  a.insert(a.end(), {"--timeout", to.str()});
  std::string source = bj.value("source", "model");
  if (source == "replay") {
    fs::path old = bench::taskDir(bj.value("replayed_from", ""), t) / "transcript.jsonl";
    a.insert(a.end(), {"--replay", old.string()});
  } else {
    a.insert(a.end(), {"--provider", bj.value("provider", "")});
    if (bj["model"].is_string())
      a.insert(a.end(), {"--model", bj["model"].get<std::string>()});
  }
  if (bj["nvcc"].is_string())
    a.insert(a.end(), {"--nvcc", bj["nvcc"].get<std::string>()});
  if (bj["max_tokens"].is_number_integer())
    a.insert(a.end(), {"--max-tokens", std::to_string(bj["max_tokens"].get<int>())});
  return a;
}

// One shard's samples, one after another in this process: the loop (--prove), then the plain
// tests and the rows. 0 when every sample of the shard is finished, 130 interrupted, 69 when
// the model could not be used (3 samples in a row), 70 when a sample failed otherwise.
int runShard(const json &bj, const fs::path &run, int index, int count, std::ostream &log) {
  std::vector<bench::Task> mine = bench::shardTasks(bench::tasks(bj), index, count);
  catchInterrupt();
  std::atomic<bool> &stop = interruptFlag();
  int worst = kExitOk, modelFailuresInARow = 0;
  const std::string self = selfExe();
  for (const bench::Task &t : mine) {
    if (stop.load())
      return kExitInterrupted;
    fs::path dir = bench::taskDir(run, t);
    if (bench::taskDone(dir))
      continue;
    std::error_code ec;
    fs::create_directories(dir.parent_path(), ec);
    fs::remove(dir / "failure.json", ec);
    if (!bench::loopFinished(dir)) {
      std::vector<std::string> args = proveArgs(bj, t, dir);
      log << "ksynth bench: " << t.spec << " sample " << t.sample << ": ksynth";
      for (const std::string &a : args)
        log << " " << a;
      log << std::endl;
      int code = proveCommand(args, log, log);
      log.flush();
      if (code == kExitInterrupted || stop.load())
        return kExitInterrupted;
      if (code != kExitProven && code != kExitBudget && code != kExitInconclusive) {
        util::writeFileAtomic(dir / "failure.json",
                              json{{"exit", code}, {"when", utcNow()}, {"log", "see the shard's log"}}.dump() + "\n");
        worst = code == kExitModel ? int(kExitModel) : std::max<int>(worst, kExitInternal);
        if (code == kExitModel && ++modelFailuresInARow >= 3) {
          log << "ksynth bench: the model could not be used for 3 samples in a row: this shard stops "
                 "(--resume the run to retry)\n";
          return kExitModel;
        }
        continue;
      }
      modelFailuresInARow = 0;
    }
    std::string err;
    if (!bench::finishTask(self, bj, t, dir, bj.value("test_timeout_s", 120.0), &stop, err)) {
      if (stop.load())
        return kExitInterrupted;
      log << "ksynth bench: " << t.spec << " sample " << t.sample << ": " << err << "\n";
      worst = std::max<int>(worst, kExitInternal);
    }
  }
  return worst;
}

// Every row of the run's finished samples, in task order.
std::vector<json> allRows(const json &bj, const fs::path &run, size_t &done) {
  std::vector<json> rows;
  done = 0;
  for (const bench::Task &t : bench::tasks(bj)) {
    fs::path d = bench::taskDir(run, t);
    if (!bench::taskDone(d))
      continue;
    ++done;
    for (json &r : bench::readRows(d))
      rows.push_back(std::move(r));
  }
  return rows;
}

std::string duration(double s) {
  char b[32];
  if (s < 60)
    std::snprintf(b, sizeof b, "%.0fs", s);
  else if (s < 3600)
    std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) % 3600 / 60);
  return b;
}

// The progress line: samples done, the ETA from this invocation's pace, the stages reached.
class Progress {
public:
  Progress(const json &bj, fs::path run, bool tty, std::ostream &err)
      : bj_(bj), run_(std::move(run)), tty_(tty), err_(err), t0_(std::chrono::steady_clock::now()) {
    size_t done;
    allRows(bj_, run_, done);
    done0_ = done;
    total_ = bench::tasks(bj_).size();
  }
  void update(bool last = false) {
    size_t done;
    std::vector<json> rows = allRows(bj_, run_, done);
    if (!tty_ && done == lastDone_ && !last)
      return;
    lastDone_ = done;
    std::map<std::pair<std::string, int>, int> best;
    int plain = 0;
    for (const json &r : rows) {
      int &b = best.try_emplace({r.value("spec", ""), r.value("sample", 0)}, -1).first->second;
      b = std::max(b, bench::stageIndex(r.value("stage", "none")));
      if (r["allclose"].value("passed", json()) == json(true))
        ++plain;
    }
    std::string stages;
    for (size_t i = 0; i < bench::kStages.size(); ++i) {
      int n = 0;
      for (const auto &[k, b] : best)
        n += b >= static_cast<int>(i) ? 1 : 0;
      if (bench::kStages[i] != "faster" || bj_["baseline"].is_array())
        stages += (i ? " " : "") + bench::kStages[i] + " " + std::to_string(n);
    }
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    std::string eta = done > done0_ && done < total_
                          ? ", ETA " + duration(el / static_cast<double>(done - done0_) * static_cast<double>(total_ - done))
                          : "";
    std::string line = "ksynth bench: " + std::to_string(done) + "/" + std::to_string(total_) + " samples" + eta +
                       " | reached: " + stages + " | plain test passed " + std::to_string(plain);
    if (tty_) {
      struct winsize ws {};
      if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 && line.size() >= ws.ws_col)
        line = line.substr(0, ws.ws_col - 1); // one line, so that \r rewrites it
      err_ << "\r\033[K" << line << (last ? "\n" : "") << std::flush;
    } else {
      err_ << line << "\n" << std::flush;
    }
  }

private:
  const json &bj_;
  fs::path run_;
  bool tty_;
  std::ostream &err_;
  std::chrono::steady_clock::time_point t0_;
  size_t done0_ = 0, total_ = 0, lastDone_ = static_cast<size_t>(-1);
};

// A child process with stdout and stderr to `log`; its pid, or -1.
pid_t spawn(const std::vector<std::string> &argv, const fs::path &log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char *> av;
  for (const std::string &a : argv)
    av.push_back(const_cast<char *>(a.c_str()));
  av.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, av[0], &fa, nullptr, av.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// The exit code of a child that ended (a signal: 128 + it).
int exitOf(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

// Waits for `pids`, updating the progress every half second; `onInterrupt` is called once
// when Ctrl-C comes. The worst exit code.
int waitAll(std::vector<pid_t> pids, Progress *progress, const std::function<void()> &onInterrupt) {
  int worst = 0;
  bool told = false;
  while (!pids.empty()) {
    for (size_t i = 0; i < pids.size();) {
      int status = 0;
      pid_t r = waitpid(pids[i], &status, WNOHANG);
      if (r == pids[i] || r < 0) {
        worst = std::max(worst, r < 0 ? kExitInternal : exitOf(status));
        pids.erase(pids.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    if (interruptFlag().load() && !told) {
      told = true;
      if (onInterrupt)
        onInterrupt();
    }
    if (progress)
      progress->update();
    if (!pids.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return worst;
}

// --slurm: one array task per shard, `sbatch --wait`; the shards' logs in RUN/shards/.
int runSlurm(const BenchArgs &ba, const fs::path &run, int shards, Progress *progress, std::ostream &err) {
  std::string sbatch = util::findOnPath("sbatch");
  if (sbatch.empty()) {
    err << "ksynth: error: --slurm: sbatch is not on PATH (Slurm's client); without Slurm, --jobs N runs the shards "
           "here\n";
    return kExitUsage;
  }
  fs::path dir = run / "slurm";
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path runAbs = fs::absolute(run).lexically_normal();
  std::string script = "#!/bin/sh\n#SBATCH --job-name=ksynth-bench\n#SBATCH --array=0-" + std::to_string(shards - 1) +
                       "\n#SBATCH --output=" + (runAbs / "shards" / "shard-%a.log").string() +
                       "\n#SBATCH --chdir=" + fs::current_path().string() + "\n";
  for (const std::string &o : ba.slurmOptions)
    script += "#SBATCH " + o + "\n";
  script += "# one shard of the bench run " + runAbs.string() + " per array task\nexec '" + selfExe() +
            "' bench --resume '" + runAbs.string() + "' --shard \"$SLURM_ARRAY_TASK_ID/" + std::to_string(shards) +
            "\" --quiet\n";
  fs::path sp = dir / "bench.sbatch";
  util::writeFileAtomic(sp, script);
  fs::permissions(sp, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::path outFile = dir / "sbatch.out";
  fs::remove(outFile, ec);
  pid_t pid = spawn({sbatch, "--parsable", "--wait", sp.string()}, outFile);
  if (pid < 0) {
    err << "ksynth: error: --slurm: cannot start sbatch\n";
    return kExitInternal;
  }
  auto cancel = [&] {
    std::string text;
    util::readFile(outFile, text);
    std::string id = text.substr(0, text.find_first_of(";\n"));
    std::string scancel = util::findOnPath("scancel");
    if (!id.empty() && !scancel.empty())
      util::runProcess({scancel, id}, 30);
  };
  int code = waitAll({pid}, progress, cancel);
  std::string text;
  util::readFile(outFile, text);
  if (code != 0 && !interruptFlag().load())
    err << "ksynth: note: sbatch --wait ended with exit " << code << ": " << text;
  return code;
}

int reportCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  std::vector<std::string> runs;
  std::string outDir;
  Options opt(args);
  while (opt.next()) {
    if (opt.is("--out")) {
      auto v = opt.value("--out");
      if (!v || v->empty())
        return benchUsage(err, "--out needs a directory");
      outDir = *v;
    } else if (opt.isOption()) {
      return benchUsage(err, "unknown option '" + opt.arg() + "' for bench report");
    } else {
      runs.push_back(opt.arg());
    }
  }
  if (runs.empty())
    return benchUsage(err, "bench report needs a run directory");
  std::vector<json> summaries;
  for (const std::string &r : runs) {
    json bj = readJson(fs::path(r) / "bench.json");
    if (!bj.is_object() || bj.value("command", "") != "bench") {
      err << "ksynth: error: '" << r << "' is not a bench run directory (no readable bench.json)\n";
      return kExitUsage;
    }
    size_t done = 0;
    std::vector<json> rows = allRows(bj, r, done);
    summaries.push_back(bench::summarise(bj, rows, bench::tasks(bj).size()));
  }
  fs::path dir = outDir.empty() ? fs::path(runs[0]) : fs::path(outDir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!util::writeFileAtomic(dir / "report.html", bench::htmlReport(summaries)) ||
      !util::writeFileAtomic(dir / "report.md", bench::markdownReport(summaries))) {
    err << "ksynth: error: cannot write the report in '" << dir.string() << "'\n";
    return kExitUsage;
  }
  out << "report: " << (dir / "report.html").string() << " and " << (dir / "report.md").string() << "\n";
  return kExitOk;
}

std::string pctText(const json &v) { return bench::percentText(v, "n/a"); }

} // namespace

int benchCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  if (!args.empty() && args[0] == "report")
    return reportCommand(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  BenchArgs ba;
  if (std::optional<int> code = parseBenchArgs(args, ba, err))
    return *code;
  json bj;
  if (std::optional<int> code = ba.resume.empty() ? newBench(ba, bj, err) : resumeBench(ba, bj, err))
    return *code;
  const fs::path run = ba.out;
  const size_t ntasks = bench::tasks(bj).size();

  if (!ba.shard.empty()) { // one shard, in this process (what --jobs and --slurm start)
    int i = -1, n = 0;
    char extra;
    if (std::sscanf(ba.shard.c_str(), "%d/%d%c", &i, &n, &extra) != 2 || n < 1 || i < 0 || i >= n)
      return benchUsage(err, "--shard needs I/N with 0 <= I < N (got '" + ba.shard + "')");
    return runShard(bj, run, i, n, out);
  }

  // One bench at a time per run directory: two would ask the model for the same samples.
  // The lock is the open file's; it goes when this process ends, however it ends.
  int lockFd = ::open((run / "bench.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd < 0 || ::flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
    err << "ksynth: error: another 'ksynth bench' is working on " << run.string() << " (it holds "
        << (run / "bench.lock").string() << "); wait for it to end, or stop it and --resume " << run.string() << "\n";
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(run / "shards", ec);
  int shards = std::max(1, std::min(ba.jobs, static_cast<int>(ntasks)));
  if (ba.slurm && !ba.given.count("--jobs"))
    shards = std::max(1, std::min(8, static_cast<int>(ntasks)));
  bool tty = isatty(2) && !ba.json && !ba.quiet;
  Progress progress(bj, run, tty, err);
  Progress *pp = ba.json || ba.quiet ? nullptr : &progress;
  catchInterrupt();
  int code = kExitOk;
  if (ba.slurm) {
    code = runSlurm(ba, run, shards, pp, err);
    if (code == kExitUsage)
      return code;
  } else if (shards == 1) {
    std::ofstream log(run / "shards" / "shard-0.log", std::ios::app);
    std::thread watcher;
    std::atomic<bool> finished{false};
    if (pp)
      watcher = std::thread([&] {
        while (!finished.load()) {
          pp->update();
          for (int i = 0; i < 5 && !finished.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      });
    code = runShard(bj, run, 0, 1, log);
    finished = true;
    if (watcher.joinable())
      watcher.join();
  } else {
    std::vector<pid_t> pids;
    for (int i = 0; i < shards; ++i) {
      pid_t pid = spawn({selfExe(), "bench", "--resume", run.string(), "--shard",
                         std::to_string(i) + "/" + std::to_string(shards), "--quiet"},
                        run / "shards" / ("shard-" + std::to_string(i) + ".log"));
      if (pid < 0) {
        err << "ksynth: error: cannot start shard " << i << "\n";
        code = kExitInternal;
        break;
      }
      pids.push_back(pid);
    }
    code = waitAll(pids, pp, nullptr);
  }
  if (pp)
    pp->update(true);

  size_t done = 0;
  std::vector<json> rows = allRows(bj, run, done);
  std::string text;
  for (const json &r : rows)
    text += r.dump() + "\n";
  util::writeFileAtomic(run / "results.jsonl", text);
  json summary = bench::summarise(bj, rows, ntasks);
  util::writeFileAtomic(run / "summary.json", summary.dump(2) + "\n");

  int result = kExitOk;
  std::string unfinished;
  if (done < ntasks) {
    int failed = 0, modelFailed = 0;
    for (const bench::Task &t : bench::tasks(bj)) {
      json f = readJson(bench::taskDir(run, t) / "failure.json");
      if (f.is_object()) {
        ++failed;
        modelFailed += f.value("exit", 0) == kExitModel ? 1 : 0;
      }
    }
    result = interruptFlag().load() ? kExitInterrupted : modelFailed ? kExitModel : kExitInternal;
    unfinished = std::to_string(ntasks - done) + " of " + std::to_string(ntasks) + " samples unfinished (" +
                 std::to_string(failed) + " failed" + (modelFailed ? ", " + std::to_string(modelFailed) + " because the model could not be used" : "") +
                 "; the shards' logs are in " + (run / "shards").string() + "); --resume " + run.string() +
                 " continues the run";
  } // else every sample finished, whatever a shard's exit said: the run is complete
  if (ba.json) {
    out << summary.dump(2) << "\n";
  } else {
    const json &pk = summary["pass_at_k"];
    out << "ksynth bench: " << done << "/" << ntasks << " samples, " << rows.size() << " candidates; pass@1:";
    for (const std::string &s : bench::kStages)
      out << " " << s << " " << pctText(pk[s].value("1", json()));
    out << "; plain test " << pctText(pk["allclose"].value("1", json())) << "\n";
    const json &il = summary["illusion"];
    out << "ksynth bench: correctness illusion: " << il.value("refuted", 0) << " of " << il.value("plain_passed", 0)
        << " candidates that passed the plain test are refuted by proof (" << pctText(il["rate"]) << ")\n";
    out << "ksynth bench: rows " << (run / "results.jsonl").string() << ", metrics " << (run / "summary.json").string()
        << "; report: ksynth bench report " << run.string() << "\n";
  }
  if (!unfinished.empty())
    err << "ksynth: " << (result == kExitInterrupted ? "interrupted: " : "error: ") << unfinished << "\n";
  return result;
}

} // namespace ksynth::cli
