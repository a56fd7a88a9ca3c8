// The synthesis loop end to end against a scripted model on a real HTTP server on loopback
// (tests/unit/models/loopback_server.h, Anthropic Messages wire format): every candidate
// goes through the real verifier. Every model reply here is written by hand for the test.
#include "synth/loop.h"

#include "synth/compile.h"

#include "loopback_server.h"
#include "models/transcript.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace ksynth;
using namespace ksynth::models::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kRacy = "The grid-stride loop keeps any N working:\n```cuda\n"
                          "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                          "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                          "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x)\n"
                          "    C[i] = A[i] + B[i];\n"
                          "}\n```\n";
const std::string kOutOfBounds = "```cuda\n"
                                 "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                                 "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "  C[i] = A[i] + B[i];\n"
                                 "}\n```\n";
const std::string kCorrect = "```cuda\n"
                             "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                             "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < N)\n"
                             "    C[i] = A[i] + B[i];\n"
                             "}\n```\n";

std::string specPath(const std::string &name) { return std::string(KSYNTH_SOURCE_DIR) + "/specs/" + name + ".smt"; }

json readJson(const fs::path &p) {
  std::ifstream in(p);
  REQUIRE_MESSAGE(in, "missing " << p);
  return json::parse(in);
}

// A scripted Anthropic model on loopback, a transcript in the run directory, the loop.
struct Run {
  LoopbackServer server;
  TempDir tmp;
  std::ostringstream progress;
  synth::LoopResult result;
  std::string runWith; // LoopOptions::runWith ("" : proven kernels are not run)
  fs::path dir() const { return tmp.path / "run"; }

  synth::LoopResult go(const std::vector<std::string> &replies, int rounds, const std::string &spec = "vec_add",
                       const std::string &nvcc = "none", int samples = 1, int optimize = 0) {
    for (const std::string &r : replies) {
      Action a = Action::json(200, anthropicReply(r, "end_turn", 1000, 200));
      a.waitForConcurrent = samples; // parallel samples: no answer before all of the round are in
      server.push(a);
    }
    models::ClientOptions opts;
    opts.model.provider = "anthropic";
    opts.model.model = "test-model-1";
    opts.model.baseUrl = server.url();
    opts.model.inputUsdPerMTok = 3;
    opts.model.outputUsdPerMTok = 15;
    opts.env = envOf({{"ANTHROPIC_API_KEY", kKey}});
    opts.http.retry = {1, 10, 10, 10};
    std::string err;
    fs::create_directories(dir());
    opts.transcript = models::Transcript::open((dir() / "transcript.jsonl").string(), err);
    REQUIRE_MESSAGE(opts.transcript, err);
    models::Error merr;
    auto client = models::makeClient(opts, merr);
    REQUIRE_MESSAGE(client, merr.message);
    synth::LoopOptions lo;
    lo.specPath = specPath(spec);
    lo.rounds = rounds;
    lo.samples = samples;
    lo.optimize = optimize;
    lo.runWith = runWith;
    lo.outDir = dir().string();
    lo.nvcc = nvcc;
    lo.out = &progress;
    lo.model = opts.model;
    lo.providerText = client->describe();
    result = synth::runLoop(lo, *client);
    return result;
  }

  // The last user turn of request i (0-based), as the server received it.
  std::string lastUserTurn(size_t i) const {
    std::vector<Received> got = server.received();
    REQUIRE(i < got.size());
    json body = got[i].json();
    const json &msgs = body.at("messages");
    REQUIRE(!msgs.empty());
    const json &last = msgs.back();
    CHECK(last.at("role") == "user");
    const json &c = last.at("content");
    if (c.is_string())
      return c.get<std::string>();
    std::string text;
    for (const json &part : c)
      text += part.value("text", "");
    return text;
  }
};

const json &obligation(const json &report, const std::string &name) {
  for (const json &o : report["kernels"][0]["obligations"])
    if (o["name"] == name)
      return o;
  FAIL("no obligation " << name);
  static json none;
  return none;
}

} // namespace

TEST_CASE("racy, then out of bounds, then correct: proven in three rounds, each counterexample fed back") {
  Run run;
  synth::LoopResult r = run.go({kRacy, kOutOfBounds, kCorrect}, 5);
  INFO(run.progress.str());
  CHECK(r.exitCode == synth::kExitProven);
  std::vector<Received> got = run.server.received();
  REQUIRE(got.size() == 3);
  CHECK(got[0].target == "/v1/messages");
  // Messages grow by one reply and one feedback per round.
  CHECK(got[0].json()["messages"].size() == 1);
  CHECK(got[1].json()["messages"].size() == 3);
  CHECK(got[2].json()["messages"].size() == 5);
  CHECK(got[1].json()["messages"][1]["content"].dump().find("i += blockDim.x") != std::string::npos);

  // Request 2 carries round 1's race: the two threads, the element and the sizes the
  // verifier found (read back from its report, not assumed here).
  json r1 = readJson(run.dir() / "round-1" / "report.json");
  const json &race = obligation(r1, "race.C");
  REQUIRE(race["status"] == "refuted");
  const json &w = race["witness"];
  std::string req2 = run.lastUserTurn(1);
  for (const json &t : w["threads"]) {
    std::string who = "thread " + std::to_string(t["thread"][0].get<int>()) + " of block " +
                      std::to_string(t["block"][0].get<int>());
    CHECK_MESSAGE(req2.find(who) != std::string::npos, who);
  }
  CHECK(req2.find("C[" + std::to_string(w["address"].get<long>()) + "]") != std::string::npos);
  CHECK(req2.find("N=" + std::to_string(w["params"]["N"].get<long>())) != std::string::npos);
  CHECK(req2.find("data race on global array 'C'") != std::string::npos);
  CHECK(req2.find("line 4 `C[i] = A[i] + B[i];`") != std::string::npos);
  CHECK(req2.find("race.C: refuted") != std::string::npos);
  CHECK(req2.find("bounds.A: proven") != std::string::npos); // every obligation's status
  CHECK(req2.find("coverage.C: refuted") != std::string::npos);

  // Request 3 carries round 2's out-of-bounds accesses: every note of every refuted bounds
  // obligation (thread, element, extent, sizes).
  json r2 = readJson(run.dir() / "round-2" / "report.json");
  std::string req3 = run.lastUserTurn(2);
  int bounds = 0;
  for (const json &o : r2["kernels"][0]["obligations"])
    if (o["kind"] == "bounds" && o["status"] == "refuted") {
      ++bounds;
      for (const json &n : o["notes"])
        CHECK_MESSAGE(req3.find(n.get<std::string>()) != std::string::npos, n);
    }
  CHECK(bounds == 3);
  CHECK(req3.find("out-of-bounds access to global array 'A'") != std::string::npos);
  CHECK(req3.find("race.C: proven") != std::string::npos);

  // The run directory is complete.
  fs::path d = run.dir();
  for (const char *f : {"run.json", "transcript.jsonl", "report.json", "kernel.cu", "proof/report.json",
                        "proof/proof.json", "proof/kernel.cu", "proof/spec.smt"})
    CHECK_MESSAGE(fs::is_regular_file(d / f), f);
  for (int i = 1; i <= 3; ++i)
    for (const char *f : {"reply.md", "candidate.cu", "report.json", "verify.txt"})
      CHECK_MESSAGE(fs::is_regular_file(d / ("round-" + std::to_string(i)) / f), i << " " << f);
  CHECK(fs::is_regular_file(d / "round-1" / "feedback.txt"));
  CHECK(fs::is_regular_file(d / "round-2" / "feedback.txt"));
  CHECK_FALSE(fs::exists(d / "round-3" / "feedback.txt"));
  CHECK(readFile(d / "kernel.cu") == readFile(d / "round-3" / "candidate.cu"));
  CHECK(readFile(d / "round-2" / "feedback.txt") == req3);
  int smt = 0;
  for (const auto &e : fs::directory_iterator(d / "proof" / "queries"))
    smt += e.path().extension() == ".smt2";
  CHECK(readJson(d / "proof" / "proof.json")["verdict"] == "proven");
  CHECK(smt > 0);

  json rep = readJson(d / "report.json");
  CHECK(rep["status"] == "proven");
  CHECK(rep["proven_round"] == 3);
  REQUIRE(rep["rounds"].size() == 3);
  CHECK(rep["rounds"][0]["verdict"] == "refuted");
  CHECK(rep["rounds"][1]["verdict"] == "refuted");
  CHECK(rep["rounds"][2]["verdict"] == "proven");
  CHECK(rep["tokens"]["input"] == 3000);
  CHECK(rep["tokens"]["output"] == 600);
  CHECK(rep["cost_usd_estimate"].get<double>() == doctest::Approx(3000 * 3e-6 + 600 * 15e-6));
  CHECK(rep["time_ms"]["verify"].get<double>() > 0);
  CHECK(rep["rounds"][0]["compile"]["status"] == "skipped");

  {
    models::TranscriptContents tc;
    std::string err;
    REQUIRE(models::readTranscript((d / "transcript.jsonl").string(), tc, err));
    int exchanges = 0;
    for (const json &x : tc.records)
      exchanges += x["type"] == "exchange";
    CHECK(exchanges == 3);
  }

  // Progress lines as the issue shows them.
  std::string p = run.progress.str();
  CHECK(p.find("round 1  candidate 1  compile skipped (no nvcc)  race \u2717") != std::string::npos);
  CHECK(p.find("round 2  candidate 2  compile skipped (no nvcc)  race \u2713 barrier \u2713 bounds \u2717") !=
        std::string::npos);
  CHECK(p.find("round 3  candidate 3  compile skipped (no nvcc)  all 11 obligations proven") != std::string::npos);
  CHECK(p.find("proven kernel: ") != std::string::npos);
}

TEST_CASE("the budget runs out: exit 1, the best candidate and its failing obligations reported") {
  Run run;
  synth::LoopResult r = run.go({kRacy, kOutOfBounds, kCorrect}, 2);
  CHECK(r.exitCode == synth::kExitBudget);
  CHECK(run.server.received().size() == 2);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["status"] == "budget-exhausted");
  CHECK_FALSE(fs::exists(run.dir() / "kernel.cu"));
  // The best candidate is the one with the most obligations proven.
  int p1 = rep["rounds"][0]["obligations"]["proven"], p2 = rep["rounds"][1]["obligations"]["proven"];
  CHECK(p1 != p2);
  CHECK(rep["best"]["round"] == (p1 > p2 ? 1 : 2));
  CHECK_FALSE(rep["best"]["failing"].empty());
  CHECK(run.progress.str().find("no proven kernel after 2 round(s); best candidate: round") != std::string::npos);
}

TEST_CASE("a reply that cannot be checked is answered with the precise problem, not a crash") {
  Run run;
  std::string twoKernels = "```cuda\n// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                           "__global__ void vec_add(const float *A, const float *B, float *C, int N) { }\n"
                           "__global__ void init(float *C) { }\n```\n";
  synth::LoopResult r = run.go({"Sorry, I need more details.", twoKernels, kCorrect}, 3);
  CHECK(r.exitCode == synth::kExitProven);
  REQUIRE(run.server.received().size() == 3);
  CHECK(run.lastUserTurn(1).find("Candidate 1 could not be checked") != std::string::npos);
  CHECK(run.lastUserTurn(1).find("no ```cuda fenced block") != std::string::npos);
  CHECK(run.lastUserTurn(2).find("2 `__global__` kernels (`vec_add`, `init`)") != std::string::npos);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["rounds"][0]["stage"] == "extract");
  CHECK_FALSE(fs::exists(run.dir() / "round-1" / "candidate.cu"));
}

TEST_CASE("a compile error is fed back with the compiler's words; ptxas use is recorded") {
  // A stand-in for nvcc (a shell script): fails on files holding BROKEN, else reports ptxas use.
  Run run;
  fs::path fake = run.tmp.path / "fake-nvcc";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\nfor a; do last=$a; done\n"
         "if grep -q BROKEN \"$last\"; then echo \"$last(4): error: identifier \\\"BROKEN\\\" is undefined\"; exit 2; fi\n"
         "echo \"ptxas info    : Used 12 registers, 0 bytes smem, 380 bytes cmem[0]\"\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  std::string broken = kCorrect;
  broken.replace(broken.find("if (i < N)"), 10, "if (i < N && BROKEN)");
  synth::LoopResult r = run.go({broken, kCorrect}, 3, "vec_add", fake.string());
  CHECK(r.exitCode == synth::kExitProven);
  REQUIRE(run.server.received().size() == 2);
  std::string req2 = run.lastUserTurn(1);
  CHECK(req2.find("nvcc could not compile it") != std::string::npos);
  CHECK(req2.find("candidate.cu(4): error: identifier \"BROKEN\" is undefined") != std::string::npos);
  CHECK(req2.find(run.dir().string()) == std::string::npos); // no paths of this machine
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["rounds"][0]["stage"] == "compile");
  CHECK(rep["rounds"][1]["compile"]["registers"] == 12);
  CHECK(run.progress.str().find("round 1  candidate 1  compiled \u2717") != std::string::npos);
  CHECK(run.progress.str().find("round 2  candidate 2  compiled \u2713") != std::string::npos);
}

TEST_CASE("a provider error stops the run with exit 69 and the provider's message; nothing is lost") {
  Run run;
  run.server.push(Action::json(200, anthropicReply(kRacy)));
  run.server.push(Action::json(401, {{"type", "error"}, {"error", {{"type", "authentication_error"}, {"message", "invalid x-api-key"}}}}));
  synth::LoopResult r = run.go({}, 3);
  CHECK(r.exitCode == synth::kExitModel);
  CHECK(r.error.find("round 2") != std::string::npos);
  CHECK(r.error.find("ANTHROPIC_API_KEY") != std::string::npos);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["status"] == "model-error");
  CHECK(rep["rounds"].size() == 2);
  CHECK(fs::is_regular_file(run.dir() / "round-1" / "report.json"));
}

TEST_CASE("a real nvcc, where there is one, compiles the candidate and records ptxas use") {
  auto nvcc = synth::findNvcc("");
  if (!nvcc) {
    MESSAGE("no nvcc on PATH: skipped");
    return;
  }
  Run run;
  synth::LoopResult r = run.go({kCorrect}, 1, "vec_add", "");
  CHECK(r.exitCode == synth::kExitProven);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["rounds"][0]["compile"]["status"] == "ok");
  CHECK(rep["rounds"][0]["compile"]["registers"].is_number());
}

TEST_CASE("rounds run out with a candidate nothing refuted but not proven: exit 2 (inconclusive), it is the best") {
  // Inline assembly is outside the subset the verifier understands: every obligation ends unknown.
  std::string unsupported = "```cuda\n"
                            "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                            "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "  asm volatile(\"\" ::: \"memory\");\n"
                            "  if (i < N) C[i] = A[i] + B[i];\n"
                            "}\n```\n";
  Run run;
  synth::LoopResult r = run.go({kRacy, unsupported}, 2);
  CHECK(r.exitCode == synth::kExitInconclusive);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["status"] == "inconclusive");
  CHECK(rep["rounds"][0]["verdict"] == "refuted");
  CHECK(rep["rounds"][1]["verdict"] == "unknown");
  CHECK(rep["best"]["round"] == 2);
  CHECK(run.progress.str().find("round 2  candidate 2  compile skipped (no nvcc)  race ?") != std::string::npos);
}

TEST_CASE("a kernel that does not parse, then one whose parameters do not match the spec: the verifier's errors fed back") {
  std::string syntax = "```cuda\n"
                       "// ksynth:launch grid=((N + 255) / 256) block=(256)\n"
                       "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x\n"
                       "  if (i < N) C[i] = A[i] + B[i];\n"
                       "}\n```\n";
  std::string misnamed = "```cuda\n"
                         "// ksynth:launch grid=((n + 255) / 256) block=(256)\n"
                         "__global__ void vec_add(const float *A, const float *B, float *C, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "  if (i < n) C[i] = A[i] + B[i];\n"
                         "}\n```\n";
  Run run;
  synth::LoopResult r = run.go({syntax, misnamed, kCorrect}, 3);
  CHECK(r.exitCode == synth::kExitProven);
  REQUIRE(run.server.received().size() == 3);
  std::string req2 = run.lastUserTurn(1), req3 = run.lastUserTurn(2);
  CHECK(req2.find("The verifier could not check it") != std::string::npos);
  CHECK(req2.find("candidate.cu:3:48: error: expected ';'") != std::string::npos); // clang, at the line
  CHECK(req2.find(run.dir().string()) == std::string::npos);
  CHECK(req3.find("The verifier could not check it") != std::string::npos);
  CHECK(req3.find("'n'") != std::string::npos); // the parameter that binds to nothing
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["rounds"][0]["verdict"] == "malformed");
  CHECK(rep["rounds"][1]["verdict"] == "malformed");
}

TEST_CASE("--samples 3: the requests are in flight together, each says its attempt, the transcript its sample") {
  Run run;
  // Every answer is held until 3 requests are in: sequential requests would stall for 5 s each.
  synth::LoopResult r = run.go({kRacy, kRacy, kRacy}, 1, "vec_add", "none", 3);
  INFO(run.progress.str());
  CHECK(r.exitCode == synth::kExitBudget);
  std::vector<Received> got = run.server.received();
  REQUIRE(got.size() == 3);
  CHECK(run.server.peakConcurrent() == 3);
  std::set<std::string> attempts;
  for (size_t i = 0; i < got.size(); ++i) {
    std::string last = run.lastUserTurn(i);
    for (int m = 1; m <= 3; ++m)
      if (last.find("(Attempt " + std::to_string(m) + " of 3:") != std::string::npos)
        attempts.insert(std::to_string(m));
    CHECK(got[i].json()["messages"].size() == 1);
  }
  CHECK(attempts == std::set<std::string>{"1", "2", "3"});
  json rep = readJson(run.dir() / "report.json");
  REQUIRE(rep["rounds"].size() == 1);
  REQUIRE(rep["rounds"][0]["samples"].size() == 3);
  CHECK(rep["rounds"][0]["best_sample"] == 1); // equal ranks: the lowest sample
  CHECK(rep["best"]["sample"] == 1);
  CHECK(rep["tokens"]["input"] == 3000);
  for (int m = 1; m <= 3; ++m)
    CHECK(fs::is_regular_file(run.dir() / "round-1" / ("sample-" + std::to_string(m)) / "report.json"));
  models::TranscriptContents tc;
  std::string err;
  REQUIRE(models::readTranscript((run.dir() / "transcript.jsonl").string(), tc, err));
  std::multiset<int> samples;
  for (const json &x : tc.records)
    if (x["type"] == "exchange")
      samples.insert(x["sample"].get<int>());
  CHECK(samples == std::multiset<int>{0, 1, 2});
}

TEST_CASE("--optimize 2: a refuted variant's counterexample and a proven one's outcome go back to the model") {
  std::string variant = "```cuda\n"
                        "// ksynth:launch grid=((N + 511) / 512) block=(512)\n"
                        "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < N)\n"
                        "    C[i] = A[i] + B[i];\n"
                        "}\n```\n";
  Run run;
  synth::LoopResult r = run.go({kCorrect, kRacy, variant}, 3, "vec_add", "none", 1, 2);
  INFO(run.progress.str());
  CHECK(r.exitCode == synth::kExitProven);
  std::vector<Received> got = run.server.received();
  REQUIRE(got.size() == 3);
  // Optimize 1 asks for a faster variant of the proven kernel, continuing the conversation.
  std::string ask1 = run.lastUserTurn(1);
  CHECK(got[1].json()["messages"].size() == 3);
  CHECK(ask1.find("Write a faster variant") != std::string::npos);
  CHECK(ask1.find("if (i < N)") != std::string::npos);
  CHECK(ask1.find("not run (--no-run)") != std::string::npos); // no runWith here: never claims a time
  // Optimize 2 starts with variant 1's outcome: not proven, with the race the verifier found.
  std::string ask2 = run.lastUserTurn(2);
  CHECK(got[2].json()["messages"].size() == 5);
  CHECK(ask2.find("Variant 1 is not proven, so it does not replace the kernel.") != std::string::npos);
  CHECK(ask2.find("data race on global array 'C'") != std::string::npos);
  CHECK(ask2.find("race.C: refuted") != std::string::npos);
  json rep = readJson(run.dir() / "report.json");
  CHECK(rep["status"] == "proven");
  const json &o = rep["optimize"];
  REQUIRE(o["rounds"].size() == 2);
  CHECK(o["rounds"][0]["proven"] == false);
  CHECK(o["rounds"][1]["proven"] == true);
  CHECK(o["rounds"][1]["compared"] == false);
  CHECK(o["rounds"][1]["replaced"] == false);
  CHECK(o["proven_not_compared"] == json::array({"optimize-2"}));
  CHECK(o["kept"] == "round-1");
  CHECK(readFile(run.dir() / "kernel.cu") == readFile(run.dir() / "round-1" / "candidate.cu"));
  CHECK(fs::is_regular_file(run.dir() / "optimize-2" / "proof" / "proof.json"));
}

TEST_CASE("--optimize with GPU timings (a stand-in for `ksynth run`): only a proven variant faster by more than 2% "
          "replaces the kernel, with its proof and run") {
  // The stand-in prints what `ksynth run --json` prints on a GPU, with a median time chosen
  // by the kernel's block size: 256 threads 1.0 ms, 512 threads 0.99 ms, 1024 threads 0.5 ms.
  Run run;
  fs::path fake = run.tmp.path / "fake-ksynth";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\nms=1.0\n"
         "grep -q 'block=(512)' \"$2\" && ms=0.99\n"
         "grep -q 'block=(1024)' \"$2\" && ms=0.5\n"
         "printf '{\\n  \"result\": \"PASS\",\\n  \"backend\": \"gpu\",\\n  \"timing\": {\"median_ms\": %s, "
         "\"gb_per_s\": 1, \"gflop_per_s\": 1}\\n}\\n' $ms\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  run.runWith = fake.string();
  auto block = [](int threads) {
    std::string t = std::to_string(threads);
    return "```cuda\n// ksynth:launch grid=((N + " + std::to_string(threads - 1) + ") / " + t + ") block=(" + t +
           ")\n__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N)\n    C[i] = A[i] + B[i];\n}\n```\n";
  };
  synth::LoopResult r = run.go({kCorrect, block(512), block(1024)}, 3, "vec_add", "none", 1, 2);
  INFO(run.progress.str());
  CHECK(r.exitCode == synth::kExitProven);
  REQUIRE(run.server.received().size() == 3);
  CHECK(run.lastUserTurn(1).find("Measured on the GPU: a median of 1 ms") != std::string::npos);
  std::string ask2 = run.lastUserTurn(2);
  CHECK(ask2.find("Variant 1 is proven. Measured on the GPU: a median of 0.99 ms against 1 ms") != std::string::npos);
  CHECK(ask2.find("does not replace the kernel") != std::string::npos);
  json rep = readJson(run.dir() / "report.json");
  const json &o = rep["optimize"];
  REQUIRE(o["rounds"].size() == 2);
  CHECK(o["rounds"][0]["compared"] == true);
  CHECK(o["rounds"][0]["replaced"] == false); // 1% faster: within the noise margin
  CHECK(o["rounds"][1]["compared"] == true);
  CHECK(o["rounds"][1]["replaced"] == true);
  CHECK(o["rounds"][1]["median_ms"] == 0.5);
  CHECK(o["kept"] == "optimize-2");
  CHECK(o["proven_not_compared"].empty());
  CHECK(rep["kernel_from"] == "optimize-2");
  CHECK(rep["proven_round"] == 1);
  CHECK(rep["run"]["median_ms"] == 0.5);
  CHECK(readFile(run.dir() / "kernel.cu") == readFile(run.dir() / "optimize-2" / "candidate.cu"));
  CHECK(readFile(run.dir() / "proof" / "kernel.cu") == readFile(run.dir() / "optimize-2" / "candidate.cu"));
  CHECK(readJson(run.dir() / "kernel-run.json")["timing"]["median_ms"] == 0.5);
  CHECK(run.progress.str().find("optimize: kept optimize-2 (measured faster)") != std::string::npos);
}
