#include "models/wire.h"

#include <algorithm>
#include <vector>

namespace ksynth::models {

using nlohmann::json;

namespace {

const char *roleName(Role r) { return r == Role::User ? "user" : "assistant"; }

// How much of an unparseable body an error message shows.
constexpr size_t kSnippet = 200;

std::string snippet(const std::string &body) {
  std::string s = body.substr(0, kSnippet);
  for (char &c : s)
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
  if (body.size() > kSnippet)
    s += "...";
  return s;
}

int64_t intAt(const json &j, const char *key) {
  if (!j.is_object())
    return 0;
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

std::string strAt(const json &j, const char *key) {
  if (!j.is_object())
    return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

const json &objAt(const json &j, const char *key) {
  static const json empty = json::object();
  if (!j.is_object())
    return empty;
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

void fail(Reply &r, ErrorKind kind, const std::string &provider, const std::string &what) {
  r.error.kind = kind;
  r.error.message = provider + ": " + what;
}

std::string joinTypes(const std::vector<std::string> &types) {
  std::string s;
  for (const auto &t : types)
    s += (s.empty() ? "" : ", ") + t;
  return s.empty() ? "none" : s;
}

void parseAnthropic(const json &j, Reply &r, const std::string &provider) {
  auto content = j.find("content");
  if (content == j.end() || !content->is_array())
    return fail(r, ErrorKind::MalformedResponse, provider,
                "reply has no 'content' array (not a Messages API reply?)");
  std::vector<std::string> types;
  for (const auto &block : *content) {
    std::string type = strAt(block, "type");
    types.push_back(type);
    if (type == "text")
      r.text += strAt(block, "text");
  }
  r.stopReason = strAt(j, "stop_reason");
  r.responseId = strAt(j, "id");
  r.model = strAt(j, "model");
  const json &u = objAt(j, "usage");
  r.usage.cachedInputTokens = intAt(u, "cache_read_input_tokens");
  // Anthropic's input_tokens excludes cache reads and writes; report the whole input.
  r.usage.inputTokens = intAt(u, "input_tokens") + intAt(u, "cache_creation_input_tokens") +
                        r.usage.cachedInputTokens;
  r.usage.outputTokens = intAt(u, "output_tokens");
  if (r.stopReason == "max_tokens")
    return fail(r, ErrorKind::TokenLimit, provider,
                "reply cut off by the token limit (stop_reason max_tokens)");
  if (r.text.empty())
    return fail(r, ErrorKind::NoText, provider,
                "reply has no text (stop_reason " +
                    (r.stopReason.empty() ? std::string("none") : r.stopReason) +
                    ", content blocks: " + joinTypes(types) + ")");
}

void parseResponses(const json &j, Reply &r, const std::string &provider) {
  auto output = j.find("output");
  if (output == j.end() || !output->is_array())
    return fail(r, ErrorKind::MalformedResponse, provider,
                "reply has no 'output' array (not a Responses API reply?)");
  std::vector<std::string> types;
  std::string refusal;
  for (const auto &item : *output) {
    std::string type = strAt(item, "type");
    types.push_back(type);
    if (type != "message" || !item.contains("content") || !item["content"].is_array())
      continue;
    for (const auto &part : item["content"]) {
      std::string ptype = strAt(part, "type");
      if (ptype == "output_text")
        r.text += strAt(part, "text");
      else if (ptype == "refusal")
        refusal += strAt(part, "refusal");
    }
  }
  std::string status = strAt(j, "status");
  std::string reason = strAt(objAt(j, "incomplete_details"), "reason");
  r.stopReason = status == "incomplete" && !reason.empty() ? reason : status;
  r.responseId = strAt(j, "id");
  r.model = strAt(j, "model");
  const json &u = objAt(j, "usage");
  r.usage.inputTokens = intAt(u, "input_tokens");
  r.usage.outputTokens = intAt(u, "output_tokens");
  r.usage.cachedInputTokens = intAt(objAt(u, "input_tokens_details"), "cached_tokens");
  r.usage.reasoningTokens = intAt(objAt(u, "output_tokens_details"), "reasoning_tokens");
  if (status == "failed") {
    std::string msg = strAt(objAt(j, "error"), "message");
    return fail(r, ErrorKind::NoText, provider,
                "response failed: " + (msg.empty() ? std::string("no message") : msg));
  }
  if (status == "incomplete" && reason == "max_output_tokens")
    return fail(r, ErrorKind::TokenLimit, provider,
                "reply cut off by the token limit (status incomplete, max_output_tokens)");
  if (status == "incomplete")
    return fail(r, ErrorKind::NoText, provider,
                "reply incomplete (" + (reason.empty() ? std::string("no reason") : reason) + ")");
  if (r.text.empty())
    return fail(r, ErrorKind::NoText, provider,
                refusal.empty() ? "reply has no text (status " + status +
                                      ", output items: " + joinTypes(types) + ")"
                                : "the model refused: " + refusal);
}

void parseChat(const json &j, Reply &r, const std::string &provider) {
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
    return fail(r, ErrorKind::MalformedResponse, provider,
                "reply has no 'choices' (not a Chat Completions reply?)");
  const json &c0 = (*choices)[0];
  const json &msg = objAt(c0, "message");
  r.text = strAt(msg, "content");
  r.stopReason = strAt(c0, "finish_reason");
  r.responseId = strAt(j, "id");
  r.model = strAt(j, "model");
  const json &u = objAt(j, "usage");
  r.usage.inputTokens = intAt(u, "prompt_tokens");
  r.usage.outputTokens = intAt(u, "completion_tokens");
  r.usage.cachedInputTokens = intAt(objAt(u, "prompt_tokens_details"), "cached_tokens");
  r.usage.reasoningTokens = intAt(objAt(u, "completion_tokens_details"), "reasoning_tokens");
  if (r.stopReason == "length")
    return fail(r, ErrorKind::TokenLimit, provider,
                "reply cut off by the token limit (finish_reason length)");
  if (r.text.empty()) {
    std::string refusal = strAt(msg, "refusal");
    return fail(r, ErrorKind::NoText, provider,
                refusal.empty()
                    ? "reply has no text (finish_reason " +
                          (r.stopReason.empty() ? std::string("none") : r.stopReason) + ")"
                    : "the model refused: " + refusal);
  }
}

} // namespace

const char *apiName(Api api) {
  switch (api) {
  case Api::AnthropicMessages:
    return "messages";
  case Api::OpenAIResponses:
    return "responses";
  case Api::ChatCompletions:
    return "chat";
  }
  return "?";
}

const char *apiPath(Api api) {
  switch (api) {
  case Api::AnthropicMessages:
    return "/v1/messages";
  case Api::OpenAIResponses:
    return "/responses";
  case Api::ChatCompletions:
    return "/chat/completions";
  }
  return "";
}

json buildRequest(Api api, const ModelConfig &config, const Conversation &conv,
                  bool legacyMaxTokens) {
  json body = json::object();
  body["model"] = config.model;
  json turns = json::array();
  if (api == Api::ChatCompletions && !conv.system.empty())
    turns.push_back({{"role", "system"}, {"content", conv.system}});
  for (const auto &t : conv.turns)
    turns.push_back({{"role", roleName(t.role)}, {"content", t.text}});
  switch (api) {
  case Api::AnthropicMessages:
    body["max_tokens"] = config.maxTokens;
    if (!conv.system.empty())
      body["system"] = conv.system;
    body["messages"] = std::move(turns);
    break;
  case Api::OpenAIResponses:
    body["max_output_tokens"] = config.maxTokens;
    if (!conv.system.empty())
      body["instructions"] = conv.system;
    body["input"] = std::move(turns);
    body["store"] = false; // nothing kept on the provider's side beyond the request
    break;
  case Api::ChatCompletions:
    body[legacyMaxTokens ? "max_tokens" : "max_completion_tokens"] = config.maxTokens;
    body["messages"] = std::move(turns);
    break;
  }
  if (config.temperature)
    body["temperature"] = *config.temperature;
  return body;
}

Reply parseReply(Api api, const std::string &body, const std::string &provider) {
  Reply r;
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    fail(r, ErrorKind::MalformedResponse, provider,
         std::string(j.is_discarded() ? "reply is not valid JSON (truncated?)"
                                      : "reply is JSON but not an object") +
             " (" + std::to_string(body.size()) + " bytes): " + snippet(body));
    return r;
  }
  switch (api) {
  case Api::AnthropicMessages:
    parseAnthropic(j, r, provider);
    break;
  case Api::OpenAIResponses:
    parseResponses(j, r, provider);
    break;
  case Api::ChatCompletions:
    parseChat(j, r, provider);
    break;
  }
  return r;
}

std::string providerErrorMessage(const std::string &body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_discarded() && j.is_object()) {
    auto err = j.find("error");
    if (err != j.end() && err->is_object()) {
      std::string msg = strAt(*err, "message");
      std::string type = strAt(*err, "type");
      if (!msg.empty())
        return type.empty() ? msg : msg + " [" + type + "]";
    }
    if (err != j.end() && err->is_string()) // Ollama, llama.cpp
      return err->get<std::string>();
    for (const char *key : {"message", "detail"}) // vLLM / FastAPI
      if (auto it = j.find(key); it != j.end())
        return it->is_string() ? it->get<std::string>() : it->dump();
  }
  if (body.empty())
    return "empty body";
  return snippet(body);
}

std::string redact(const std::string &text, const std::string &secret) {
  if (secret.empty() || text.empty())
    return text;
  const size_t minPiece = std::min<size_t>(8, secret.size());
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // Longest piece of the secret that starts at text[i].
    size_t best = 0;
    for (size_t s = secret.find(text[i]); s != std::string::npos; s = secret.find(text[i], s + 1)) {
      size_t len = 0;
      while (s + len < secret.size() && i + len < text.size() && secret[s + len] == text[i + len])
        ++len;
      best = std::max(best, len);
    }
    if (best >= minPiece) {
      out += "[redacted]";
      i += best;
    } else {
      out += text[i++];
    }
  }
  return out;
}

json toJson(const Conversation &conv) {
  json turns = json::array();
  for (const auto &t : conv.turns)
    turns.push_back({{"role", roleName(t.role)}, {"text", t.text}});
  return {{"system", conv.system}, {"turns", std::move(turns)}};
}

json toJson(const Reply &r) {
  json j = {{"text", r.text},
            {"stop_reason", r.stopReason},
            {"usage",
             {{"input_tokens", r.usage.inputTokens},
              {"output_tokens", r.usage.outputTokens},
              {"cached_input_tokens", r.usage.cachedInputTokens},
              {"reasoning_tokens", r.usage.reasoningTokens}}},
            {"latency_ms", r.latencyMs},
            {"total_ms", r.totalMs},
            {"attempts", r.attempts},
            {"request_id", r.requestId},
            {"response_id", r.responseId},
            {"model", r.model}};
  if (r.ok())
    j["error"] = nullptr;
  else
    j["error"] = {{"kind", errorKindName(r.error.kind)},
                  {"message", r.error.message},
                  {"http_status", r.error.httpStatus}};
  return j;
}

Reply replyFromJson(const json &j) {
  Reply r;
  r.text = j.at("text").get<std::string>();
  r.stopReason = j.at("stop_reason").get<std::string>();
  const json &u = j.at("usage");
  r.usage.inputTokens = u.at("input_tokens").get<int64_t>();
  r.usage.outputTokens = u.at("output_tokens").get<int64_t>();
  r.usage.cachedInputTokens = u.value("cached_input_tokens", int64_t(0));
  r.usage.reasoningTokens = u.value("reasoning_tokens", int64_t(0));
  r.latencyMs = j.at("latency_ms").get<double>();
  r.totalMs = j.at("total_ms").get<double>();
  r.attempts = j.at("attempts").get<int>();
  r.requestId = j.at("request_id").get<std::string>();
  r.responseId = j.at("response_id").get<std::string>();
  r.model = j.at("model").get<std::string>();
  const json &e = j.at("error");
  if (!e.is_null()) {
    auto kind = errorKindFromName(e.at("kind").get<std::string>());
    if (!kind)
      throw json::other_error::create(
          501, "unknown error kind '" + e.at("kind").get<std::string>() + "'", &e);
    r.error.kind = *kind;
    r.error.message = e.at("message").get<std::string>();
    r.error.httpStatus = e.at("http_status").get<long>();
  }
  return r;
}

} // namespace ksynth::models
