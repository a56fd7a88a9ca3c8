// models/wire: request bodies and reply parsing of the three wire formats, redaction,
// and the transcript form of a Reply. No network.
#include "models/wire.h"

#include "test_support.h"

#include <doctest/doctest.h>

using namespace ksynth::models;
using nlohmann::json;

namespace {

Conversation sample() {
  Conversation c;
  c.system = "You write CUDA kernels.";
  c.turns = {{Role::User, "Write a vector add."},
             {Role::Assistant, "__global__ void add() {}"},
             {Role::User, "Counterexample: race on c[0]."}};
  return c;
}

ModelConfig config(double temperature = -1) {
  ModelConfig m;
  m.model = "model-x";
  m.maxTokens = 321;
  if (temperature >= 0)
    m.temperature = temperature;
  return m;
}

} // namespace

TEST_CASE(
    "anthropic request: system apart, turns as messages, max_tokens, temperature only when set") {
  json body = buildRequest(Api::AnthropicMessages, config(0.25), sample(), false);
  CHECK(body == json::parse(R"({
    "model": "model-x", "max_tokens": 321, "temperature": 0.25,
    "system": "You write CUDA kernels.",
    "messages": [
      {"role": "user", "content": "Write a vector add."},
      {"role": "assistant", "content": "__global__ void add() {}"},
      {"role": "user", "content": "Counterexample: race on c[0]."}]})"));
  Conversation noSystem = sample();
  noSystem.system.clear();
  json b2 = buildRequest(Api::AnthropicMessages, config(), noSystem, false);
  CHECK_FALSE(b2.contains("system"));
  CHECK_FALSE(b2.contains("temperature"));
}

TEST_CASE("responses request: instructions, input, max_output_tokens, store false") {
  json body = buildRequest(Api::OpenAIResponses, config(), sample(), false);
  CHECK(body == json::parse(R"({
    "model": "model-x", "max_output_tokens": 321, "store": false,
    "instructions": "You write CUDA kernels.",
    "input": [
      {"role": "user", "content": "Write a vector add."},
      {"role": "assistant", "content": "__global__ void add() {}"},
      {"role": "user", "content": "Counterexample: race on c[0]."}]})"));
}

TEST_CASE("chat request: system message first; max_completion_tokens, or max_tokens for compatible "
          "servers") {
  json body = buildRequest(Api::ChatCompletions, config(0.7), sample(), false);
  CHECK(body == json::parse(R"({
    "model": "model-x", "max_completion_tokens": 321, "temperature": 0.7,
    "messages": [
      {"role": "system", "content": "You write CUDA kernels."},
      {"role": "user", "content": "Write a vector add."},
      {"role": "assistant", "content": "__global__ void add() {}"},
      {"role": "user", "content": "Counterexample: race on c[0]."}]})"));
  json legacy = buildRequest(Api::ChatCompletions, config(), sample(), true);
  CHECK(legacy["max_tokens"] == 321);
  CHECK_FALSE(legacy.contains("max_completion_tokens"));
  CHECK(std::string(apiPath(Api::ChatCompletions)) == "/chat/completions");
  CHECK(std::string(apiPath(Api::OpenAIResponses)) == "/responses");
  CHECK(std::string(apiPath(Api::AnthropicMessages)) == "/v1/messages");
}

TEST_CASE("anthropic reply: text blocks joined, usage with cache, ids, stop reason") {
  auto body = R"({"id":"msg_1","type":"message","model":"m-1","stop_reason":"end_turn",
    "content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"a"},{"type":"text","text":"b"}],
    "usage":{"input_tokens":10,"cache_creation_input_tokens":3,"cache_read_input_tokens":5,"output_tokens":7}})";
  Reply r = parseReply(Api::AnthropicMessages, body, "anthropic");
  CHECK(r.ok());
  CHECK(r.text == "ab");
  CHECK(r.stopReason == "end_turn");
  CHECK(r.responseId == "msg_1");
  CHECK(r.model == "m-1");
  CHECK(r.usage == Usage{18, 7, 5, 0});
}

TEST_CASE("anthropic reply: max_tokens is a token-limit error that keeps the partial text; tool "
          "use only is no text") {
  auto cut = R"({"id":"m","content":[{"type":"text","text":"__global__ void k("}],
    "stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":2}})";
  Reply r = parseReply(Api::AnthropicMessages, cut, "anthropic");
  CHECK(r.error.kind == ErrorKind::TokenLimit);
  CHECK(r.text == "__global__ void k(");
  CHECK(r.error.message.find("token limit") != std::string::npos);
  auto tool = R"({"id":"m","content":[{"type":"tool_use","id":"t","name":"x","input":{}}],
    "stop_reason":"tool_use","usage":{}})";
  Reply t = parseReply(Api::AnthropicMessages, tool, "anthropic");
  CHECK(t.error.kind == ErrorKind::NoText);
  CHECK(t.error.message ==
        "anthropic: reply has no text (stop_reason tool_use, content blocks: tool_use)");
}

TEST_CASE("responses reply: message text after reasoning; incomplete, refusal and failure") {
  auto ok = R"({"id":"resp_1","status":"completed","model":"gpt-x","output":[
      {"type":"reasoning","summary":[]},
      {"type":"message","content":[{"type":"output_text","text":"kernel"}]}],
    "usage":{"input_tokens":9,"output_tokens":40,"input_tokens_details":{"cached_tokens":4},
             "output_tokens_details":{"reasoning_tokens":30}}})";
  Reply r = parseReply(Api::OpenAIResponses, ok, "openai");
  CHECK(r.ok());
  CHECK(r.text == "kernel");
  CHECK(r.stopReason == "completed");
  CHECK(r.usage == Usage{9, 40, 4, 30});
  CHECK(r.responseId == "resp_1");

  auto cut = R"({"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},
    "output":[{"type":"reasoning","summary":[]}],"usage":{"input_tokens":1,"output_tokens":100}})";
  Reply c = parseReply(Api::OpenAIResponses, cut, "openai");
  CHECK(c.error.kind == ErrorKind::TokenLimit);
  CHECK(c.stopReason == "max_output_tokens");

  auto refused = R"({"id":"r","status":"completed","output":[{"type":"message","content":[
    {"type":"refusal","refusal":"I can't help with that."}]}]})";
  Reply f = parseReply(Api::OpenAIResponses, refused, "openai");
  CHECK(f.error.kind == ErrorKind::NoText);
  CHECK(f.error.message == "openai: the model refused: I can't help with that.");

  auto failed =
      R"({"id":"r","status":"failed","error":{"code":"server_error","message":"boom"},"output":[]})";
  Reply x = parseReply(Api::OpenAIResponses, failed, "openai");
  CHECK(x.error.kind == ErrorKind::NoText);
  CHECK(x.error.message == "openai: response failed: boom");
}

TEST_CASE("chat reply: content, finish_reason length, null content") {
  Reply r = parseReply(
      Api::ChatCompletions,
      R"({"id":"c1","model":"q","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],
                          "usage":{"prompt_tokens":3,"completion_tokens":1}})",
      "openai-compatible");
  CHECK(r.ok());
  CHECK(r.text == "hi");
  CHECK(r.usage == Usage{3, 1, 0, 0});
  Reply len =
      parseReply(Api::ChatCompletions,
                 R"({"choices":[{"message":{"content":"part"},"finish_reason":"length"}]})", "x");
  CHECK(len.error.kind == ErrorKind::TokenLimit);
  CHECK(len.text == "part");
  Reply none =
      parseReply(Api::ChatCompletions,
                 R"({"choices":[{"message":{"content":null},"finish_reason":"stop"}]})", "x");
  CHECK(none.error.kind == ErrorKind::NoText);
  CHECK(none.error.message == "x: reply has no text (finish_reason stop)");
}

TEST_CASE("malformed and truncated replies are errors in every format") {
  for (Api api : {Api::AnthropicMessages, Api::OpenAIResponses, Api::ChatCompletions}) {
    std::string api_name = apiName(api);
    CAPTURE(api_name);
    Reply t = parseReply(api, R"({"id":"msg_1","content":[{"type":"text","te)", "p");
    CHECK(t.error.kind == ErrorKind::MalformedResponse);
    CHECK(t.error.message.rfind("p: reply is not valid JSON (truncated?) (43 bytes): {\"id\"", 0) ==
          0);
    CHECK(parseReply(api, "[1,2]", "p").error.kind == ErrorKind::MalformedResponse);
    CHECK(parseReply(api, "", "p").error.kind == ErrorKind::MalformedResponse);
    CHECK(parseReply(api, R"({"unexpected":true})", "p").error.kind ==
          ErrorKind::MalformedResponse);
  }
}

TEST_CASE("provider error messages in each server's shape") {
  CHECK(
      providerErrorMessage(
          R"({"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}})") ==
      "max_tokens: too large [invalid_request_error]");
  CHECK(providerErrorMessage(
            R"({"error":{"message":"bad model","type":null,"code":"model_not_found"}})") ==
        "bad model");
  CHECK(providerErrorMessage(R"({"error":"model 'x' not found"})") == "model 'x' not found");
  CHECK(providerErrorMessage(R"({"detail":"Not Found"})") == "Not Found");
  CHECK(providerErrorMessage("<html>\n502 Bad Gateway</html>") == "<html> 502 Bad Gateway</html>");
  CHECK(providerErrorMessage("") == "empty body");
}

TEST_CASE("redact removes the key and any 8-character piece of it, nothing else") {
  using ksynth::models::test::kKey;
  CHECK(redact("key=" + kKey + ";", kKey) == "key=[redacted];");
  // OpenAI-style masked echo: first and last characters.
  std::string masked = "Incorrect API key provided: " + kKey.substr(0, 10) + "*****" +
                       kKey.substr(kKey.size() - 8) + ".";
  std::string r = redact(masked, kKey);
  CHECK_FALSE(ksynth::models::test::leaksKey(r));
  CHECK(r == "Incorrect API key provided: [redacted]*****[redacted].");
  CHECK(redact("sk-ksyn is short", kKey) == "sk-ksyn is short");
  CHECK(redact("anything", "") == "anything");
}

TEST_CASE("a Reply survives its transcript form exactly") {
  Reply r;
  r.text = "line1\nline2 \"quoted\" ü";
  r.stopReason = "max_tokens";
  r.usage = {100, 50, 10, 20};
  r.latencyMs = 1234.5678901234;
  r.totalMs = 2345.1;
  r.attempts = 3;
  r.requestId = "req_1";
  r.responseId = "msg_1";
  r.model = "m";
  r.error = {ErrorKind::TokenLimit, "anthropic: cut off", 200};
  Reply back = replyFromJson(json::parse(toJson(r).dump()));
  CHECK(back.text == r.text);
  CHECK(back.stopReason == r.stopReason);
  CHECK(back.usage == r.usage);
  CHECK(back.latencyMs == r.latencyMs);
  CHECK(back.totalMs == r.totalMs);
  CHECK(back.attempts == 3);
  CHECK(back.requestId == "req_1");
  CHECK(back.responseId == "msg_1");
  CHECK(back.model == "m");
  CHECK(back.error == r.error);
  for (ErrorKind k :
       {ErrorKind::None, ErrorKind::Auth, ErrorKind::ReplayExhausted, ErrorKind::TokenLimit})
    CHECK(errorKindFromName(errorKindName(k)) == k);
  CHECK_FALSE(errorKindFromName("no-such-kind").has_value());
}
