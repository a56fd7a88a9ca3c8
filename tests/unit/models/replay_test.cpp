// Provider "replay": a recording made against the loopback server plays back offline with
// identical results; a hand-written fixture plays back; divergence and exhaustion are
// refused with clear messages.
#include "models/replay.h"

#include "loopback_server.h"
#include "models/transcript.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace ksynth::models;
using namespace ksynth::models::test;
using nlohmann::json;

namespace {

const std::string kFixture =
    (std::filesystem::path(__FILE__).parent_path() / "fixtures" / "handwritten_transcript.jsonl")
        .string();

Conversation conv(const std::string &system, std::vector<Turn> turns) {
  Conversation c;
  c.system = system;
  c.turns = std::move(turns);
  return c;
}

std::unique_ptr<Client> replayOf(const std::string &path, const std::string &model = "") {
  ClientOptions o;
  o.model.provider = "replay";
  o.model.replayPath = path;
  o.model.model = model;
  o.env = envOf({}); // no keys, no network
  Error err;
  auto c = makeClient(o, err);
  REQUIRE_MESSAGE(c, err.message);
  return c;
}

void checkSame(const Reply &live, const Reply &replayed) {
  CHECK(replayed.replayed);
  CHECK(replayed.text == live.text);
  CHECK(replayed.stopReason == live.stopReason);
  CHECK(replayed.usage == live.usage);
  CHECK(replayed.latencyMs == live.latencyMs);
  CHECK(replayed.totalMs == live.totalMs);
  CHECK(replayed.attempts == live.attempts);
  CHECK(replayed.requestId == live.requestId);
  CHECK(replayed.responseId == live.responseId);
  CHECK(replayed.model == live.model);
  CHECK(replayed.error == live.error);
}

} // namespace

TEST_CASE("replay round trip: record against loopback, replay offline, identical results") {
  TempDir dir;
  std::string path = dir.file("recorded.jsonl");
  Conversation c1 = conv("sys", {{Role::User, "first"}});
  Conversation c2 =
      conv("sys", {{Role::User, "first"}, {Role::Assistant, "a"}, {Role::User, "fix it"}});
  Conversation c3 = conv("", {{Role::User, "too long"}});
  Conversation c4 = conv("sys", {{Role::User, "sample four"}});
  std::vector<Reply> live, liveMany;
  {
    LoopbackServer server;
    server.push(Action::json(200, anthropicReply("kernel one"), {{"request-id", "req_1"}}));
    server.push(Action::json(429, json::object(), {{"retry-after", "1"}}));
    server.push(Action::json(200, anthropicReply("kernel two"), {{"request-id", "req_2"}}));
    server.push(Action::json(200, anthropicReply("__global__", "max_tokens")));
    for (const char *t : {"candidate A", "candidate B", "candidate C"})
      server.push(Action::json(200, anthropicReply(t)));
    Setup s("anthropic", server.url());
    std::string err;
    s.opts.transcript = Transcript::open(path, err);
    auto client = s.client();
    live.push_back(client->send(c1));
    live.push_back(client->send(c2));
    live.push_back(client->send(c3));
    liveMany = client->sendMany(c4, 3);
  } // the server is gone: what follows is offline
  CHECK(live[0].ok());
  CHECK(live[1].attempts == 2);
  CHECK(live[2].error.kind == ErrorKind::TokenLimit);

  auto replay = replayOf(path, "test-model-1");
  // Out of order is fine: each conversation finds its own recording.
  Reply r3 = replay->send(c3);
  Reply r1 = replay->send(c1);
  Reply r2 = replay->send(c2);
  checkSame(live[0], r1);
  checkSame(live[1], r2);
  checkSame(live[2], r3);
  auto many = replay->sendMany(c4, 3);
  REQUIRE(many.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    checkSame(liveMany[i], many[i]);
  }
  // Each recording is used once.
  Reply again = replay->send(c1);
  CHECK(again.error.kind == ErrorKind::ReplayExhausted);
  CHECK(again.error.message ==
        "replay: " + path + " has no exchange left (all 6 used); the run asked for one more");
  CHECK(again.replayed);
}

TEST_CASE("replay refuses a diverging conversation and says where it diverges") {
  auto replay = replayOf(kFixture);
  Reply sys = replay->send(
      conv("You write CUDA kernel.", {{Role::User, "Write a vector add for n floats."}}));
  CHECK(sys.error.kind == ErrorKind::ReplayDiverged);
  CHECK(sys.error.message ==
        "replay: the conversation diverges from the recording " + kFixture +
            " (next unused exchange, line 2): the system prompt differs at character 22: recorded "
            "'You write CUDA kernels.', now 'You write CUDA kernel.'");
  Reply turn = replay->send(
      conv("You write CUDA kernels.", {{Role::User, "Write a vector add for n doubles."}}));
  CHECK(turn.error.kind == ErrorKind::ReplayDiverged);
  CHECK(turn.error.message.find(
            "turn 1 (user) differs at character 26: recorded 'Write a vector add for n "
            "floats.', now 'Write a vector add for n doubles.'") != std::string::npos);
  Reply more = replay->send(
      conv("You write CUDA kernels.",
           {{Role::User, "Write a vector add for n floats."}, {Role::Assistant, "ok"}}));
  CHECK(more.error.message.find("the recording has 1 turns, the conversation 2") !=
        std::string::npos);
  Reply sample = replay->send(
      conv("You write CUDA kernels.", {{Role::User, "Write a vector add for n floats."}}), 5);
  CHECK(sample.error.kind == ErrorKind::ReplayDiverged);
  CHECK(sample.error.message.find("the recording has no sample 5 of this conversation") !=
        std::string::npos);

  auto wrongModel = replayOf(kFixture, "other-model");
  Reply m = wrongModel->send(
      conv("You write CUDA kernels.", {{Role::User, "Write a vector add for n floats."}}));
  CHECK(m.error.kind == ErrorKind::ReplayDiverged);
  CHECK(m.error.message.find("model differs: recorded fixture-model, now other-model") !=
        std::string::npos);
}

TEST_CASE("a hand-written fixture replays, recorded errors included, and is labelled as such") {
  std::string header = readFile(kFixture).substr(0, 200);
  CHECK(header.find("HAND-WRITTEN TEST FIXTURE") != std::string::npos);
  auto replay = replayOf(kFixture, "fixture-model");
  CHECK(replay->describe() == "replay of " + kFixture + " (2 exchanges)");
  Reply a = replay->send(
      conv("You write CUDA kernels.", {{Role::User, "Write a vector add for n floats."}}));
  REQUIRE(a.ok());
  CHECK(a.text.rfind("// hand-written fixture reply\n__global__ void add(", 0) == 0);
  CHECK(a.usage == Usage{25, 60, 0, 0});
  CHECK(a.latencyMs == 812.5);
  CHECK(a.requestId == "req_fixture_1");
  // The second recording omits the empty system prompt; it is sample 1.
  Reply b = replay->send(conv("", {{Role::User, "Write a vector add for n floats."}}), 1);
  CHECK(b.error.kind == ErrorKind::TokenLimit);
  CHECK(b.error.httpStatus == 200);
  CHECK(b.text == "__global__ void add");
  CHECK(b.attempts == 2);
}

TEST_CASE(
    "replay reads a transcript cut mid-line, refuses a damaged one, and records what it replays") {
  TempDir dir;
  std::string cut = dir.file("cut.jsonl");
  {
    std::ofstream out(cut);
    out << readFile(kFixture) << R"({"type":"exchange","provider":"anthropic","conver)";
  }
  TranscriptContents tc;
  std::string err;
  REQUIRE(readTranscript(cut, tc, err));
  CHECK(tc.droppedTail == 1);
  CHECK(tc.records.size() == 4);
  auto replay = replayOf(cut);

  std::string damaged = dir.file("damaged.jsonl");
  {
    std::ofstream out(damaged);
    out << "{\"type\":\"header\"}\nnot json\n" << readFile(kFixture);
  }
  ClientOptions o;
  o.model.provider = "replay";
  o.model.replayPath = damaged;
  Error e;
  CHECK(makeClient(o, e) == nullptr);
  CHECK(e.kind == ErrorKind::Config);
  CHECK(e.message == "replay: " + damaged + ":2: not a JSON object");

  std::string empty = dir.file("empty.jsonl");
  std::ofstream(empty) << "{\"type\":\"header\"}\n";
  o.model.replayPath = empty;
  CHECK(makeClient(o, e) == nullptr);
  CHECK(e.message == "replay: " + empty + " holds no exchanges");
  o.model.replayPath = dir.file("missing.jsonl");
  CHECK(makeClient(o, e) == nullptr);
  CHECK(e.message.find("cannot read transcript") != std::string::npos);

  // A replayed exchange is itself recorded, marked with where it came from.
  ClientOptions rec;
  rec.model.provider = "replay";
  rec.model.replayPath = kFixture;
  std::string out = dir.file("rerun.jsonl");
  rec.transcript = Transcript::open(out, err);
  auto r = makeClient(rec, e);
  REQUIRE(r);
  REQUIRE(
      r->send(conv("You write CUDA kernels.", {{Role::User, "Write a vector add for n floats."}}))
          .ok());
  TranscriptContents back;
  REQUIRE(readTranscript(out, back, err));
  REQUIRE(back.records.size() == 2);
  CHECK(back.records[1]["replayed_from"] == kFixture);
  CHECK(back.records[1]["replayed_line"] == 2);
  CHECK(back.records[1]["reply"]["request_id"] == "req_fixture_1");
}
