// models/client against a real HTTP server on loopback (loopback_server.h): the exact
// requests sent, retries and back-off, every failure the issue lists, redirects,
// concurrency, transcripts, and that the key never leaks.
#include "models/client.h"

#include "loopback_server.h"
#include "models/transcript.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ksynth::models;
using namespace ksynth::models::test;
using nlohmann::json;

namespace {

Conversation convo(const std::string &user = "Write a kernel.") {
  Conversation c;
  c.system = "You are a test.";
  c.turns = {{Role::User, user}};
  return c;
}

std::vector<json> records(const std::string &path, const std::string &type) {
  TranscriptContents tc;
  std::string err;
  REQUIRE_MESSAGE(readTranscript(path, tc, err), err);
  std::vector<json> out;
  for (auto &r : tc.records)
    if (r.value("type", "") == type)
      out.push_back(r);
  return out;
}

// A port nothing listens on.
int closedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

} // namespace

TEST_CASE("anthropic: the exact request on the wire and every field of the reply") {
  LoopbackServer server;
  server.push(Action::json(200, anthropicReply("__global__ void k() {}", "end_turn", 21, 8),
                           {{"request-id", "req_abc123"}}));
  Setup s("anthropic", "");
  s.opts.env = envOf({{"ANTHROPIC_API_KEY", kKey}, {"ANTHROPIC_BASE_URL", server.url() + "/"}});
  s.opts.model.temperature = 0.5;
  Reply r = s.client()->send(convo());

  REQUIRE(r.ok());
  CHECK(r.text == "__global__ void k() {}");
  CHECK(r.stopReason == "end_turn");
  CHECK(r.usage == Usage{21, 8, 0, 0});
  CHECK(r.requestId == "req_abc123");
  CHECK(r.responseId == "msg_test_0001");
  CHECK(r.model == "test-model-served");
  CHECK(r.attempts == 1);
  CHECK(r.latencyMs > 0);
  CHECK(r.totalMs >= r.latencyMs);
  CHECK_FALSE(r.replayed);

  auto got = server.received();
  REQUIRE(got.size() == 1);
  CHECK(got[0].method == "POST");
  CHECK(got[0].target == "/v1/messages");
  CHECK(got[0].header("x-api-key") == kKey);
  CHECK(got[0].header("anthropic-version") == "2023-06-01");
  CHECK(got[0].header("content-type") == "application/json");
  CHECK_FALSE(got[0].has("authorization"));
  CHECK_FALSE(got[0].has("expect"));
  CHECK(got[0].json() == json::parse(R"({"model":"test-model-1","max_tokens":256,"temperature":0.5,
        "system":"You are a test.","messages":[{"role":"user","content":"Write a kernel."}]})"));
  CHECK(s.sleeps.delays.empty());
}

TEST_CASE("openai: Responses and Chat Completions under OPENAI_BASE_URL with a bearer key") {
  LoopbackServer server;
  server.push(Action::json(200, responsesReply("from responses"), {{"x-request-id", "req_r"}}));
  server.push(Action::json(200, chatReply("from chat"), {{"x-request-id", "req_c"}}));
  Setup s("openai", "");
  s.opts.env = envOf({{"OPENAI_API_KEY", kKey}, {"OPENAI_BASE_URL", server.url() + "/v1"}});
  Reply a = s.client()->send(convo());
  s.opts.model.api = "chat";
  Reply b = s.client()->send(convo());

  REQUIRE(a.ok());
  CHECK(a.text == "from responses");
  CHECK(a.usage == Usage{12, 34, 0, 5});
  CHECK(a.requestId == "req_r");
  REQUIRE(b.ok());
  CHECK(b.text == "from chat");
  CHECK(b.requestId == "req_c");
  auto got = server.received();
  REQUIRE(got.size() == 2);
  CHECK(got[0].target == "/v1/responses");
  CHECK(got[1].target == "/v1/chat/completions");
  for (const auto &g : got) {
    CHECK(g.header("authorization") == "Bearer " + kKey);
    CHECK_FALSE(g.has("x-api-key"));
  }
  CHECK(got[0].json() ==
        json::parse(R"({"model":"test-model-1","max_output_tokens":256,"store":false,
        "instructions":"You are a test.","input":[{"role":"user","content":"Write a kernel."}]})"));
  CHECK(got[1].json() == json::parse(R"({"model":"test-model-1","max_completion_tokens":256,
        "messages":[{"role":"system","content":"You are a test."},{"role":"user","content":"Write a kernel."}]})"));
}

TEST_CASE("openai-compatible: any base URL, key optional, max_tokens") {
  LoopbackServer server;
  Setup s("openai-compatible", server.url() + "/v1");
  s.opts.env = envOf({});
  Reply r = s.client()->send(convo("hello server"));
  REQUIRE(r.ok());
  CHECK(r.text == "echo: hello server");
  // The preset may name another variable for the key.
  s.opts.model.apiKeyEnv = "LOCAL_LLM_KEY";
  s.opts.env = envOf({{"LOCAL_LLM_KEY", kKey}});
  CHECK(s.client()->send(convo()).ok());

  // A keyless server that turns out to want a key says which variable to set.
  s.opts.model.apiKeyEnv = "";
  s.opts.env = envOf({});
  server.push(Action::json(401, {{"error", "unauthorized"}}));
  Reply denied = s.client()->send(convo());
  CHECK(denied.error.kind == ErrorKind::Auth);
  CHECK(denied.error.message == "openai-compatible: HTTP 401 authentication failed (no key was "
                                "sent; set OPENAI_API_KEY if this server needs one): unauthorized");

  auto got = server.received();
  REQUIRE(got.size() == 3);
  CHECK(got[0].target == "/v1/chat/completions");
  CHECK_FALSE(got[0].has("authorization"));
  CHECK(got[0].json()["max_tokens"] == 256);
  CHECK(got[1].header("authorization") == "Bearer " + kKey);
}

TEST_CASE(
    "429 with retry-after: waits exactly as asked, then succeeds; the retry is in the transcript") {
  LoopbackServer server;
  TempDir dir;
  server.push(Action::json(429, {{"error", {{"message", "slow down"}}}}, {{"retry-after", "7"}}));
  Setup s("anthropic", server.url());
  std::string err;
  s.opts.transcript = Transcript::open(dir.file("t.jsonl"), err);
  Reply r = s.client()->send(convo(), 2);
  REQUIRE(r.ok());
  CHECK(r.attempts == 2);
  CHECK(s.sleeps.delays == std::vector<double>{7000});
  auto got = server.received();
  REQUIRE(got.size() == 2);
  CHECK(got[0].body == got[1].body);
  auto retries = records(dir.file("t.jsonl"), "retry");
  REQUIRE(retries.size() == 1);
  CHECK(retries[0]["http_status"] == 429);
  CHECK(retries[0]["attempt"] == 1);
  CHECK(retries[0]["sample"] == 2);
  CHECK(retries[0]["retry_after_ms"] == 7000.0);
  CHECK(retries[0]["delay_ms"] == 7000.0);
  CHECK(retries[0]["error"]["kind"] == "rate-limited");
  CHECK(retries[0]["error"]["message"] == "anthropic: HTTP 429 rate limited: slow down");
}

TEST_CASE("retry-after-ms and an HTTP date are honoured too") {
  LoopbackServer server;
  server.push(Action::json(429, json::object(), {{"retry-after-ms", "250"}}));
  server.push(
      Action::json(503, json::object(), {{"retry-after", "Thu, 01 Jan 1970 00:00:00 GMT"}}));
  Setup s("openai", server.url());
  Reply r = s.client()->send(convo());
  REQUIRE(r.ok());
  CHECK(r.attempts == 3);
  CHECK(s.sleeps.delays == std::vector<double>{250, 0}); // a date in the past: no wait
}

TEST_CASE("429 without retry-after, 500 and 503: exponential back-off with jitter") {
  LoopbackServer server;
  server.push(Action::json(429, json::object()));
  server.push(Action::json(500, {{"error", {{"message", "internal"}}}}));
  server.push(Action::json(503, json::object()));
  Setup s("anthropic", server.url());
  s.opts.http.retry = {4, 100, 1000, 10000};
  Reply r = s.client()->send(convo());
  REQUIRE(r.ok());
  CHECK(r.attempts == 4);
  CHECK(server.received().size() == 4);
  REQUIRE(s.sleeps.delays.size() == 3);
  // Retry n waits between half and all of base * 2^(n-1).
  for (int n = 0; n < 3; ++n) {
    double full = 100.0 * (1 << n);
    CHECK(s.sleeps.delays[n] >= full / 2);
    CHECK(s.sleeps.delays[n] <= full);
  }
}

TEST_CASE("the retry limit and the retry budget bound the retries") {
  LoopbackServer server;
  server.push(Action::json(503, {{"error", {{"message", "overloaded"}}}}), 3);
  Setup s("anthropic", server.url());
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::Server);
  CHECK(r.error.httpStatus == 503);
  CHECK(r.error.message ==
        "anthropic: HTTP 503 server error: overloaded (gave up after 3 attempts)");
  CHECK(r.attempts == 3);
  CHECK(server.received().size() == 3);
  CHECK(s.sleeps.delays.size() == 2);

  // A retry-after beyond the budget: give up at once and say why.
  LoopbackServer busy;
  busy.push(Action::json(429, json::object(), {{"retry-after", "120"}}));
  Setup b("anthropic", busy.url());
  Reply rb = b.client()->send(convo());
  CHECK(rb.error.kind == ErrorKind::RateLimited);
  CHECK(rb.attempts == 1);
  CHECK(rb.error.message.find(
            "waiting 120 s as retry-after asks would exceed the retry budget of 10 s") !=
        std::string::npos);
  CHECK(b.sleeps.delays.empty());
  CHECK(busy.received().size() == 1);
}

TEST_CASE(
    "a stalled response times out and is retried; a server that always stalls is a timeout error") {
  LoopbackServer server;
  server.push(Action::stall());
  Setup s("anthropic", server.url());
  s.opts.http.totalTimeoutMs = 300;
  Reply r = s.client()->send(convo("after stall"));
  REQUIRE(r.ok());
  CHECK(r.text == "echo: after stall");
  CHECK(r.attempts == 2);
  CHECK(server.received().size() == 2);

  LoopbackServer dead;
  dead.push(Action::stall(), 2);
  Setup d("anthropic", dead.url());
  d.opts.http.totalTimeoutMs = 300;
  d.opts.http.retry.maxAttempts = 2;
  Reply t = d.client()->send(convo());
  CHECK(t.error.kind == ErrorKind::Timeout);
  CHECK(t.error.httpStatus == 0);
  CHECK(t.error.message.rfind("anthropic: timed out talking to " + dead.url() + "/v1/messages",
                              0) == 0);
  CHECK(t.error.message.find("gave up after 2 attempts") != std::string::npos);
  CHECK(dead.received().size() == 2);
}

TEST_CASE("a connection reset and a body cut short are retried") {
  LoopbackServer server;
  server.push(Action::reset());
  server.push(Action::shortBody(anthropicReply("partial").dump().substr(0, 20), 400));
  Setup s("anthropic", server.url());
  Reply r = s.client()->send(convo("third time"));
  REQUIRE(r.ok());
  CHECK(r.text == "echo: third time");
  CHECK(r.attempts == 3);
  CHECK(server.received().size() == 3);
  CHECK(s.sleeps.delays.size() == 2);

  LoopbackServer flaky;
  flaky.push(Action::reset(), 3);
  Setup f("openai", flaky.url());
  Reply e = f.client()->send(convo());
  CHECK(e.error.kind == ErrorKind::Connection);
  CHECK(e.error.message.rfind(
            "openai: connection reset or closed early by " + flaky.url() + "/responses", 0) == 0);
}

TEST_CASE("nothing listening: a connection error after the retries") {
  Setup s("anthropic", "http://127.0.0.1:" + std::to_string(closedPort()));
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::Connection);
  CHECK(r.attempts == 3);
  CHECK(r.error.message.find("cannot connect to") != std::string::npos);
}

TEST_CASE("https to a server that does not speak TLS is a TLS error, never retried") {
  // A listener that answers every connection with plain HTTP: the TLS handshake fails.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
  REQUIRE(::listen(fd, 8) == 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
  int connections = 0;
  std::thread plain([&] {
    int c = ::accept(fd, nullptr, nullptr);
    if (c < 0)
      return;
    ++connections;
    const char reply[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    (void)::send(c, reply, sizeof reply - 1, MSG_NOSIGNAL);
    ::close(c);
  });
  Setup s("anthropic", "https://127.0.0.1:" + std::to_string(ntohs(a.sin_port)));
  Reply r = s.client()->send(convo());
  ::shutdown(fd, SHUT_RDWR);
  plain.join();
  ::close(fd);
  CHECK(r.error.kind == ErrorKind::Tls);
  CHECK(r.error.message.rfind("anthropic: TLS failure with https://127.0.0.1:", 0) == 0);
  CHECK(r.attempts == 1);
  CHECK(connections == 1);
  CHECK(s.sleeps.delays.empty());
}

TEST_CASE("truncated JSON in a complete 200 is a malformed reply, not retried") {
  LoopbackServer server;
  std::string cut = anthropicReply("abc").dump();
  cut.resize(cut.size() / 2);
  server.push(Action::reply(200, cut, {{"Content-Type", "application/json"}}));
  Setup s("anthropic", server.url());
  TempDir dir;
  std::string err;
  s.opts.transcript = Transcript::open(dir.file("t.jsonl"), err);
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::MalformedResponse);
  CHECK(r.error.httpStatus == 200);
  CHECK(r.error.message.find("reply is not valid JSON (truncated?)") != std::string::npos);
  CHECK(r.attempts == 1);
  CHECK(server.received().size() == 1);
  auto ex = records(dir.file("t.jsonl"), "exchange");
  REQUIRE(ex.size() == 1);
  CHECK(ex[0]["response"].is_null());
  CHECK(ex[0]["response_text"] == cut); // the raw body is kept for diagnosis
}

TEST_CASE(
    "401 and 403 name the variable to set and never show the key, even when the server echoes it") {
  LoopbackServer server;
  server.push(Action::json(
      401,
      {{"type", "error"},
       {"error", {{"type", "authentication_error"}, {"message", "invalid x-api-key " + kKey}}}}));
  Setup s("anthropic", server.url());
  TempDir dir;
  std::string err;
  s.opts.transcript = Transcript::open(dir.file("t.jsonl"), err);
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::Auth);
  CHECK(r.error.httpStatus == 401);
  CHECK(r.error.message ==
        "anthropic: HTTP 401 authentication failed (check the key in ANTHROPIC_API_KEY): "
        "invalid x-api-key [redacted] [authentication_error]");
  CHECK(r.attempts == 1);
  CHECK(server.received().size() == 1);
  CHECK_FALSE(leaksKey(readFile(dir.file("t.jsonl"))));

  LoopbackServer forbidden;
  std::string masked = kKey.substr(0, 9) + "****" + kKey.substr(kKey.size() - 9);
  forbidden.push(
      Action::json(403, {{"error", {{"message", "Incorrect API key provided: " + masked}}}}));
  Setup o("openai", forbidden.url());
  Reply f = o.client()->send(convo());
  CHECK(f.error.kind == ErrorKind::Auth);
  CHECK(f.error.message ==
        "openai: HTTP 403 permission denied (check the key in OPENAI_API_KEY): Incorrect API key "
        "provided: [redacted]****[redacted]");
  CHECK_FALSE(leaksKey(f.error.message));
}

TEST_CASE("400 shows the provider's message; 404 is reported, neither is retried") {
  LoopbackServer server;
  server.push(Action::json(
      400,
      {{"type", "error"},
       {"error", {{"type", "invalid_request_error"}, {"message", "max_tokens: 999999 > 64000"}}}}));
  server.push(Action::json(404, {{"error", {{"message", "model not found"}}}}));
  Setup s("anthropic", server.url());
  Reply a = s.client()->send(convo());
  CHECK(a.error.kind == ErrorKind::BadRequest);
  CHECK(a.error.message ==
        "anthropic: HTTP 400 bad request: max_tokens: 999999 > 64000 [invalid_request_error]");
  Reply b = s.client()->send(convo());
  CHECK(b.error.kind == ErrorKind::HttpStatus);
  CHECK(b.error.message ==
        "anthropic: HTTP 404 from " + server.url() + "/v1/messages: model not found");
  CHECK(server.received().size() == 2);
  CHECK(s.sleeps.delays.empty());
}

TEST_CASE(
    "a reply at the token limit is an error that keeps the partial text, in all three formats") {
  LoopbackServer server;
  server.push(Action::json(200, anthropicReply("__global__ void k(", "max_tokens", 5, 256)));
  server.push(Action::json(200, responsesReply("__global__", "incomplete", "max_output_tokens")));
  server.push(Action::json(200, chatReply("__glo", "length")));
  Setup a("anthropic", server.url());
  Setup o("openai", server.url() + "/v1");
  Setup c("openai-compatible", server.url() + "/v1");
  Reply ra = a.client()->send(convo());
  Reply ro = o.client()->send(convo());
  Reply rc = c.client()->send(convo());
  CHECK(ra.error.kind == ErrorKind::TokenLimit);
  CHECK(ra.text == "__global__ void k(");
  CHECK(ra.stopReason == "max_tokens");
  CHECK(ra.usage.outputTokens == 256);
  CHECK(ra.error.message == "anthropic: reply cut off by the token limit (stop_reason max_tokens); "
                            "raise max tokens (now 256)");
  CHECK(ro.error.kind == ErrorKind::TokenLimit);
  CHECK(ro.stopReason == "max_output_tokens");
  CHECK(rc.error.kind == ErrorKind::TokenLimit);
  CHECK(rc.text == "__glo");
  CHECK(server.received().size() == 3);
}

TEST_CASE("a reply with no text is an error") {
  LoopbackServer server;
  server.push(Action::json(200, anthropicReply("", "end_turn")));
  Setup s("anthropic", server.url());
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::NoText);
  CHECK(r.error.message ==
        "anthropic: reply has no text (stop_reason end_turn, content blocks: text)");
}

TEST_CASE("a redirect to another host is reported, not followed: the key never reaches it") {
  LoopbackServer origin, elsewhere;
  std::string target = "http://localhost:" + std::to_string(elsewhere.port()) + "/v1/messages";
  origin.push(Action::json(307, json::object(), {{"Location", target}}));
  Setup s("anthropic", origin.url());
  Reply r = s.client()->send(convo());
  CHECK(r.error.kind == ErrorKind::Redirect);
  CHECK(r.error.httpStatus == 307);
  CHECK(r.error.message == "anthropic: HTTP 307 redirect from " + origin.url() +
                               "/v1/messages to " + target +
                               " not followed: the key must not be sent to another host; set the "
                               "base URL to the final endpoint");
  CHECK(r.attempts == 1);
  CHECK(origin.received().size() == 1);
  CHECK(elsewhere.received().empty());
}

TEST_CASE("sendMany keeps k requests in flight at once, each result in its sample's place") {
  LoopbackServer server;
  for (int i = 0; i < 4; ++i) {
    Action a = Action::json(200, chatReply("candidate"));
    a.waitForConcurrent = 4; // answers only once all four requests are in
    server.push(a);
  }
  Setup s("openai-compatible", server.url() + "/v1");
  TempDir dir;
  std::string err;
  s.opts.transcript = Transcript::open(dir.file("t.jsonl"), err);
  auto client = s.client();
  auto replies = client->sendMany(convo(), 4);
  REQUIRE(replies.size() == 4);
  for (const auto &r : replies)
    CHECK(r.ok());
  CHECK(server.peakConcurrent() == 4);
  std::string arrivals;
  for (auto &g : server.received())
    arrivals += std::to_string(g.arrivedMs) + " ";
  CHECK_MESSAGE(server.received().size() == 4, arrivals << readFile(dir.file("t.jsonl")));
  auto ex = records(dir.file("t.jsonl"), "exchange");
  REQUIRE(ex.size() == 4);
  std::vector<int> samples;
  for (auto &e : ex)
    samples.push_back(e["sample"].get<int>());
  std::sort(samples.begin(), samples.end());
  CHECK(samples == std::vector<int>{0, 1, 2, 3});
  CHECK(client->sendMany(convo(), 0).empty());
}

TEST_CASE("the transcript: a header, then each exchange as it completes, without credentials") {
  LoopbackServer server;
  TempDir dir;
  std::string path = dir.file("run.jsonl");
  server.push(Action::json(200, anthropicReply("first"), {{"request-id", "req_1"}}));
  server.push(Action::json(500, json::object()));
  Setup s("anthropic", server.url());
  std::string err;
  s.opts.transcript = Transcript::open(path, err);
  REQUIRE(s.opts.transcript);
  auto client = s.client();
  client->send(convo("one"));
  // Written and flushed before the next send: a kill here loses nothing.
  CHECK(records(path, "exchange").size() == 1);
  client->send(convo("two"));

  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  TranscriptContents tc;
  REQUIRE(readTranscript(path, tc, err));
  REQUIRE(tc.records.size() == 4); // header, exchange, retry, exchange
  CHECK(tc.records[0]["type"] == "header");
  CHECK(tc.records[0]["format"] == "ksynth-transcript");
  const json &e = tc.records[1];
  CHECK(e["type"] == "exchange");
  CHECK(e["provider"] == "anthropic");
  CHECK(e["api"] == "messages");
  CHECK(e["url"] == server.url() + "/v1/messages");
  CHECK(e["model"] == "test-model-1");
  CHECK(e["sample"] == 0);
  CHECK(e["conversation"] ==
        json::parse(R"({"system":"You are a test.","turns":[{"role":"user","text":"one"}]})"));
  CHECK(e["request"] == server.received()[0].json());
  CHECK(e["http_status"] == 200);
  CHECK(e["response"] == anthropicReply("first"));
  CHECK(e["response_headers"]["request-id"] == "req_1");
  CHECK(e["reply"]["text"] == "first");
  CHECK(e["reply"]["request_id"] == "req_1");
  CHECK(e["reply"]["error"].is_null());
  CHECK(e.contains("time"));
  CHECK(tc.records[2]["type"] == "retry");
  CHECK(tc.records[3]["reply"]["text"] == "echo: two");
  CHECK(tc.records[3]["reply"]["attempts"] == 2);
  std::string all = readFile(path);
  CHECK_FALSE(leaksKey(all));
  CHECK(all.find("x-api-key") == std::string::npos);

  // Reopening appends; no second header.
  s.opts.transcript = Transcript::open(path, err);
  s.client()->send(convo("three"));
  CHECK(records(path, "header").size() == 1);
  CHECK(records(path, "exchange").size() == 3);
}

TEST_CASE("a transcript that cannot be written is reported with the reply, not ignored") {
  LoopbackServer server;
  server.push(Action::json(503, json::object()));
  Setup s("anthropic", server.url());
  std::string err;
  s.opts.transcript = Transcript::open("/dev/full", err); // a device: no header; every write fails
  REQUIRE_MESSAGE(s.opts.transcript, err);
  Reply r = s.client()->send(convo());
  CHECK(r.ok()); // the reply itself is fine ...
  CHECK(r.attempts == 2);
  // ... but the run can no longer be replayed, and the caller is told.
  CHECK(r.transcriptError == "cannot append to transcript '/dev/full': No space left on device");
}

TEST_CASE("configuration errors are clear and name what to set") {
  Setup s("anthropic", "");
  auto expect = [&](const std::string &message) {
    Error err;
    CHECK(makeClient(s.opts, err) == nullptr);
    CHECK(err.kind == ErrorKind::Config);
    CHECK(err.message == message);
  };
  s.opts.env = envOf({});
  expect("anthropic: ANTHROPIC_API_KEY is not set; export it (keys are read only from the "
         "environment)");
  s.opts.model.provider = "openai";
  expect("openai: OPENAI_API_KEY is not set; export it (keys are read only from the environment)");
  s.opts.model.provider = "openai-compatible";
  expect("openai-compatible: no base URL; set OPENAI_BASE_URL (e.g. http://localhost:8000/v1 for "
         "vLLM) or the preset's base_url");
  s.opts.model.baseUrl = "localhost:8000/v1";
  expect("openai-compatible: base URL 'localhost:8000/v1' must start with http:// or https://");
  s.opts.model.provider = "gemini";
  expect("unknown provider 'gemini' (use anthropic, openai, openai-compatible or replay)");
  s.opts.model.provider = "anthropic";
  s.opts.model.api = "chat";
  s.opts.env = envOf({{"ANTHROPIC_API_KEY", kKey}});
  expect("anthropic: unknown api 'chat' (anthropic speaks 'messages')");
  s.opts.model.api = "";
  s.opts.model.model = "";
  expect("anthropic: no model id given");
  s.opts.model.provider = "replay";
  expect("replay: no transcript to replay (set the replay path)");

  Setup ok("anthropic", "https://api.example.invalid");
  Error err;
  auto c = makeClient(ok.opts, err);
  REQUIRE(c);
  CHECK(c->describe() ==
        "anthropic test-model-1 (messages) at https://api.example.invalid/v1/messages");
  CHECK_FALSE(leaksKey(c->describe()));
}
