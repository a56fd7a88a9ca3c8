// The live client: builds the provider's request, sends it over HttpPool with retries,
// classifies failures, parses the reply and records the exchange.
#include "models/client.h"

#include "models/http.h"
#include "models/replay.h"
#include "models/transcript.h"
#include "models/wire.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <random>
#include <thread>

namespace ksynth::models {

using nlohmann::json;

namespace {

constexpr const char *kAnthropicVersion = "2023-06-01";
// The most of a non-JSON response body a transcript keeps.
constexpr size_t kMaxRawInTranscript = 64 * 1024;

struct KindName {
  ErrorKind kind;
  const char *name;
};
constexpr KindName kKindNames[] = {
    {ErrorKind::None, "none"},
    {ErrorKind::Config, "config"},
    {ErrorKind::Auth, "auth"},
    {ErrorKind::BadRequest, "bad-request"},
    {ErrorKind::RateLimited, "rate-limited"},
    {ErrorKind::Server, "server"},
    {ErrorKind::HttpStatus, "http-status"},
    {ErrorKind::Timeout, "timeout"},
    {ErrorKind::Connection, "connection"},
    {ErrorKind::Tls, "tls"},
    {ErrorKind::Redirect, "redirect"},
    {ErrorKind::MalformedResponse, "malformed-response"},
    {ErrorKind::NoText, "no-text"},
    {ErrorKind::TokenLimit, "token-limit"},
    {ErrorKind::ReplayDiverged, "replay-diverged"},
    {ErrorKind::ReplayExhausted, "replay-exhausted"},
};

void redactJson(json &j, const std::string &secret) {
  if (secret.empty())
    return;
  if (j.is_string()) {
    j = redact(j.get<std::string>(), secret);
  } else if (j.is_array()) {
    for (auto &e : j)
      redactJson(e, secret);
  } else if (j.is_object()) {
    json out = json::object();
    for (auto &[k, v] : j.items()) {
      json value = v;
      redactJson(value, secret);
      out[redact(k, secret)] = std::move(value);
    }
    j = std::move(out);
  }
}

std::string trimSlash(std::string s) {
  while (!s.empty() && s.back() == '/')
    s.pop_back();
  return s;
}

std::string fmtSeconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", ms / 1000);
  return buf;
}

// What one attempt came to, before parsing a successful body.
struct Attempt {
  bool success = false; // 2xx received in full
  bool retryable = false;
  Error error;
};

class LiveClient : public Client {
public:
  LiveClient(ClientOptions opts, std::string provider, Api api, std::string baseUrl,
             std::string key, std::string keyEnv, std::string baseEnv)
      : opts_(std::move(opts)), provider_(std::move(provider)), api_(api),
        url_(trimSlash(baseUrl) + apiPath(api)), key_(std::move(key)), keyEnv_(std::move(keyEnv)),
        baseEnv_(std::move(baseEnv)),
        rng_(opts_.jitterSeed ? opts_.jitterSeed : std::random_device{}()) {}

  std::string describe() const override {
    return provider_ + " " + opts_.model.model + " (" + apiName(api_) + ") at " + url_;
  }

  Reply send(const Conversation &conv, int sample) override {
    auto start = std::chrono::steady_clock::now();
    json body = buildRequest(api_, opts_.model, conv, provider_ == "openai-compatible");
    HttpRequest req;
    req.url = url_;
    req.body = body.dump();
    req.connectTimeoutMs = opts_.http.connectTimeoutMs;
    req.totalTimeoutMs = opts_.http.totalTimeoutMs;
    req.headers.emplace_back("content-type", "application/json");
    if (api_ == Api::AnthropicMessages) {
      req.headers.emplace_back("x-api-key", key_);
      req.headers.emplace_back("anthropic-version", kAnthropicVersion);
    } else if (!key_.empty()) {
      req.headers.emplace_back("authorization", "Bearer " + key_);
    }

    const RetryPolicy &policy = opts_.http.retry;
    Reply reply;
    HttpResponse resp;
    double slept = 0;
    int attempt = 0;
    std::string retryRecordError;
    while (true) {
      ++attempt;
      resp = pool_.post(req);
      Attempt a = judge(resp);
      if (a.success) {
        reply = parseReply(api_, resp.body, provider_);
        if (reply.error.kind == ErrorKind::TokenLimit)
          reply.error.message +=
              "; raise max tokens (now " + std::to_string(opts_.model.maxTokens) + ")";
        reply.error.httpStatus = reply.ok() ? 0 : resp.status;
        break;
      }
      reply = Reply{};
      reply.error = a.error;
      if (!a.retryable)
        break;
      if (attempt >= std::max(1, policy.maxAttempts)) {
        reply.error.message += " (gave up after " + std::to_string(attempt) + " attempts)";
        break;
      }
      double asked = retryAfterMs(resp.headers);
      double delay = asked >= 0 ? asked : backoff(attempt);
      if (slept + delay > policy.budgetMs) {
        reply.error.message +=
            " (gave up after " + std::to_string(attempt) + " attempts: waiting " +
            fmtSeconds(delay) + (asked >= 0 ? " as retry-after asks" : "") +
            " would exceed the retry budget of " + fmtSeconds(policy.budgetMs) + ")";
        break;
      }
      std::string recErr = record(
          json{{"type", "retry"},
               {"provider", provider_},
               {"url", url_},
               {"sample", sample},
               {"attempt", attempt},
               {"http_status", resp.status},
               {"error", {{"kind", errorKindName(a.error.kind)}, {"message", a.error.message}}},
               {"retry_after_ms", asked >= 0 ? json(asked) : json(nullptr)},
               {"delay_ms", delay}});
      if (retryRecordError.empty())
        retryRecordError = recErr;
      if (opts_.sleep)
        opts_.sleep(delay);
      else
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(delay));
      slept += delay;
    }
    reply.attempts = attempt;
    reply.latencyMs = resp.elapsedMs;
    reply.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (const char *h : {"request-id", "x-request-id"})
      if (auto it = resp.headers.find(h); it != resp.headers.end() && reply.requestId.empty())
        reply.requestId = it->second;
    reply.error.message = redact(reply.error.message, key_);
    recordExchange(conv, sample, body, resp, reply);
    if (reply.transcriptError.empty())
      reply.transcriptError = retryRecordError;
    return reply;
  }

private:
  double backoff(int attempt) {
    const RetryPolicy &p = opts_.http.retry;
    double d = std::min(p.maxDelayMs, p.baseDelayMs * std::pow(2.0, attempt - 1));
    std::lock_guard<std::mutex> lock(rngMu_);
    // "Equal jitter": half fixed, half random, so retries of k parallel samples spread out.
    return d / 2 + std::uniform_real_distribution<double>(0, d / 2)(rng_);
  }

  std::string keyHint() const {
    if (key_.empty())
      return "no key was sent; set " + keyEnv_ + " if this server needs one";
    return "check the key in " + keyEnv_;
  }

  Attempt judge(const HttpResponse &r) const {
    Attempt a;
    const std::string where = provider_ + ": ";
    if (r.transport != Transport::Ok) {
      a.error.httpStatus = 0;
      switch (r.transport) {
      case Transport::Timeout:
        a.error.kind = ErrorKind::Timeout;
        a.retryable = true;
        a.error.message = where + "timed out talking to " + url_ + " (connect timeout " +
                          std::to_string(opts_.http.connectTimeoutMs) + " ms, total " +
                          std::to_string(opts_.http.totalTimeoutMs) + " ms): " + r.transportMessage;
        break;
      case Transport::Tls:
        a.error.kind = ErrorKind::Tls;
        a.error.message = where + "TLS failure with " + url_ +
                          " (certificates are always verified): " + r.transportMessage;
        break;
      case Transport::TooLarge:
        a.error.kind = ErrorKind::MalformedResponse;
        a.error.message = where + "refused the reply from " + url_ + ": " + r.transportMessage;
        break;
      case Transport::Other:
        a.error.kind = ErrorKind::Connection;
        a.error.message = where + "request to " + url_ + " failed: " + r.transportMessage;
        break;
      default:
        a.error.kind = ErrorKind::Connection;
        a.retryable = true;
        a.error.message =
            where +
            std::string(r.transport == Transport::Reset ? "connection reset or closed early by "
                                                        : "cannot connect to ") +
            url_ + ": " + r.transportMessage;
        break;
      }
      return a;
    }
    long s = r.status;
    a.error.httpStatus = s;
    std::string code = "HTTP " + std::to_string(s);
    if (s >= 200 && s < 300) {
      a.success = true;
      return a;
    }
    std::string msg = providerErrorMessage(r.body);
    if (s >= 300 && s < 400) {
      auto loc = r.headers.find("location");
      a.error.kind = ErrorKind::Redirect;
      a.error.message = where + code + " redirect from " + url_ + " to " +
                        (loc != r.headers.end() ? loc->second : std::string("(no location)")) +
                        " not followed: the key must not be sent to another host; set " +
                        (opts_.model.baseUrl.empty() ? baseEnv_ : std::string("the base URL")) +
                        " to the final endpoint";
    } else if (s == 401 || s == 403) {
      a.error.kind = ErrorKind::Auth;
      a.error.message = where + code +
                        (s == 401 ? " authentication failed" : " permission denied") + " (" +
                        keyHint() + "): " + msg;
    } else if (s == 400) {
      a.error.kind = ErrorKind::BadRequest;
      a.error.message = where + code + " bad request: " + msg;
    } else if (s == 429) {
      a.error.kind = ErrorKind::RateLimited;
      a.retryable = true;
      a.error.message = where + code + " rate limited: " + msg;
    } else if (s >= 500) {
      a.error.kind = ErrorKind::Server;
      a.retryable = true;
      a.error.message = where + code + " server error: " + msg;
    } else {
      a.error.kind = ErrorKind::HttpStatus;
      a.retryable = s == 408 || s == 409; // request timeout, lock conflict: as the SDKs do
      a.error.message = where + code + " from " + url_ + ": " + msg;
    }
    return a;
  }

  // "" when written (or there is no transcript), else why not.
  std::string record(json rec) {
    if (!opts_.transcript)
      return "";
    redactJson(rec, key_);
    return opts_.transcript->append(std::move(rec)) ? "" : opts_.transcript->lastError();
  }

  void recordExchange(const Conversation &conv, int sample, const json &body,
                      const HttpResponse &resp, Reply &reply) {
    if (!opts_.transcript)
      return;
    json rec = {{"type", "exchange"},           {"provider", provider_},
                {"api", apiName(api_)},         {"url", url_},
                {"model", opts_.model.model},   {"sample", sample},
                {"conversation", toJson(conv)}, {"request", body},
                {"http_status", resp.status},   {"reply", toJson(reply)}};
    json headers = json::object();
    for (const auto &[k, v] : resp.headers)
      if (k != "set-cookie")
        headers[k] = v;
    rec["response_headers"] = std::move(headers);
    json parsed = json::parse(resp.body, nullptr, false);
    if (!parsed.is_discarded()) {
      rec["response"] = std::move(parsed);
    } else {
      rec["response"] = nullptr;
      rec["response_text"] = resp.body.substr(0, kMaxRawInTranscript);
      if (resp.body.size() > kMaxRawInTranscript)
        rec["response_text_truncated_from"] = resp.body.size();
    }
    reply.transcriptError = record(std::move(rec));
  }

  ClientOptions opts_;
  std::string provider_;
  Api api_;
  std::string url_;
  std::string key_;
  std::string keyEnv_;
  std::string baseEnv_;
  HttpPool pool_;
  std::mutex rngMu_;
  std::mt19937_64 rng_;
};

} // namespace

const char *errorKindName(ErrorKind kind) {
  for (const auto &kn : kKindNames)
    if (kn.kind == kind)
      return kn.name;
  return "unknown";
}

std::optional<ErrorKind> errorKindFromName(const std::string &name) {
  for (const auto &kn : kKindNames)
    if (name == kn.name)
      return kn.kind;
  return std::nullopt;
}

double costUsd(const Usage &u, const ModelConfig &c) {
  return (u.inputTokens * c.inputUsdPerMTok + u.outputTokens * c.outputUsdPerMTok) / 1e6;
}

std::vector<Reply> Client::sendMany(const Conversation &conv, int k) {
  std::vector<Reply> out(k > 0 ? k : 0);
  std::vector<std::exception_ptr> errors(out.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < out.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        out[i] = send(conv, static_cast<int>(i));
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto &t : threads)
    t.join();
  for (auto &e : errors)
    if (e)
      std::rethrow_exception(e);
  return out;
}

std::unique_ptr<Client> makeClient(const ClientOptions &options, Error &error) {
  const ModelConfig &m = options.model;
  auto bad = [&](const std::string &msg) -> std::unique_ptr<Client> {
    error.kind = ErrorKind::Config;
    error.message = msg;
    error.httpStatus = 0;
    return nullptr;
  };
  if (m.provider == "replay")
    return makeReplayClient(options, error);

  auto env = [&](const std::string &name) -> std::string {
    if (options.env) {
      auto v = options.env(name);
      return v ? *v : "";
    }
    const char *v = std::getenv(name.c_str());
    return v ? v : "";
  };

  Api api;
  std::string keyEnv, baseEnv, defaultBase;
  bool keyRequired = true;
  if (m.provider == "anthropic") {
    if (!m.api.empty() && m.api != "messages")
      return bad("anthropic: unknown api '" + m.api + "' (anthropic speaks 'messages')");
    api = Api::AnthropicMessages;
    keyEnv = "ANTHROPIC_API_KEY";
    baseEnv = "ANTHROPIC_BASE_URL";
    defaultBase = "https://api.anthropic.com";
  } else if (m.provider == "openai" || m.provider == "openai-compatible") {
    if (m.api.empty())
      api = m.provider == "openai" ? Api::OpenAIResponses : Api::ChatCompletions;
    else if (m.api == "responses")
      api = Api::OpenAIResponses;
    else if (m.api == "chat")
      api = Api::ChatCompletions;
    else
      return bad(m.provider + ": unknown api '" + m.api + "' (use 'responses' or 'chat')");
    keyEnv = "OPENAI_API_KEY";
    baseEnv = "OPENAI_BASE_URL";
    if (m.provider == "openai")
      defaultBase = "https://api.openai.com/v1";
    else
      keyRequired = false;
  } else {
    return bad("unknown provider '" + m.provider +
               "' (use anthropic, openai, openai-compatible or replay)");
  }
  if (!m.apiKeyEnv.empty())
    keyEnv = m.apiKeyEnv;
  if (m.model.empty())
    return bad(m.provider + ": no model id given");
  if (m.maxTokens <= 0)
    return bad(m.provider + ": max tokens must be positive (got " + std::to_string(m.maxTokens) +
               ")");
  std::string key = env(keyEnv);
  if (key.empty() && keyRequired)
    return bad(m.provider + ": " + keyEnv +
               " is not set; export it (keys are read only from the environment)");
  std::string base = !m.baseUrl.empty() ? m.baseUrl : env(baseEnv);
  if (base.empty())
    base = defaultBase;
  if (base.empty())
    return bad(m.provider + ": no base URL; set " + baseEnv +
               " (e.g. http://localhost:8000/v1 for vLLM) or the preset's base_url");
  if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
    return bad(m.provider + ": base URL '" + redact(base, key) +
               "' must start with http:// or https://");
  return std::make_unique<LiveClient>(options, m.provider, api, base, key, keyEnv, baseEnv);
}

} // namespace ksynth::models
