// models/ — a provider-neutral client for language models: a conversation (system prompt
// and turns) goes in, the reply text, token usage, latency, stop reason and the provider's
// request id come out. Providers: Anthropic Messages, OpenAI Responses and Chat
// Completions, any OpenAI-compatible server, and replay of a recorded transcript.
//
// Contract (DESIGN.md, "Models"):
//  - Keys come only from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, or the
//    variable a preset names); endpoints from ModelConfig::baseUrl, else
//    ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the vendor's default. A key never reaches
//    a transcript, an error message or a log.
//  - A failed request is data, not an exception: Reply::error says what went wrong in
//    words a user can act on. send() never throws for provider or network problems.
//  - 429, 408, 409, 5xx, connection resets and timeouts are retried with exponential
//    back-off and jitter, honouring retry-after, within RetryPolicy's bounds. Redirects
//    are never followed (the key must not travel to another host); they are errors.
//  - Every exchange is appended to the transcript (if any) as soon as it completes and is
//    flushed, so a killed run loses nothing and can be replayed exactly.
//
// Typical use by the synthesis loop (`ksynth --provider ... --model ...`):
//
//   ksynth::models::ClientOptions opts;
//   opts.model = *ksynth::models::loadPreset("claude-sonnet-4-5", err);   // presets.h
//   opts.transcript = ksynth::models::Transcript::open("run/transcript.jsonl", err);
//   auto client = ksynth::models::makeClient(opts, error);
//   if (!client) { print(error.message); return 64; }
//   std::vector<Reply> replies = client->sendMany(conversation, /*k=*/4);
//   for (auto &r : replies) if (!r.ok()) print(r.error.message); else use(r.text);
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::models {

class Transcript;

enum class Role { User, Assistant };

struct Turn {
  Role role = Role::User;
  std::string text;
};

struct Conversation {
  std::string system; // empty: no system prompt
  std::vector<Turn> turns;
};

struct Usage {
  int64_t inputTokens = 0;
  int64_t outputTokens = 0;      // includes reasoning tokens where the provider counts them
  int64_t cachedInputTokens = 0; // part of the input read from the provider's prompt cache
  int64_t reasoningTokens = 0;   // part of the output spent on hidden reasoning
  bool operator==(const Usage &) const = default;
};

enum class ErrorKind {
  None,
  Config,            // bad options: unknown provider, missing key or base URL, bad preset
  Auth,              // HTTP 401/403: the key is missing, wrong or lacks access
  BadRequest,        // HTTP 400: the provider's message says why
  RateLimited,       // HTTP 429 after the retry budget ran out
  Server,            // HTTP 5xx after the retry budget ran out
  HttpStatus,        // any other unexpected HTTP status (404, 413, 422, ...)
  Timeout,           // connect or total timeout, after retries
  Connection,        // refused, reset, truncated transfer, DNS, after retries
  Tls,               // certificate or TLS failure (never retried, never bypassed)
  Redirect,          // 3xx: not followed, so the key never goes to another host
  MalformedResponse, // 2xx whose body is not the JSON the API promises
  NoText,            // a well-formed reply with no text (refusal, tool call, empty)
  TokenLimit,        // reply cut off by the token limit; Reply::text holds the partial text
  ReplayDiverged,    // replay: the conversation differs from every remaining recording
  ReplayExhausted,   // replay: the recording has no exchange left
};
const char *errorKindName(ErrorKind kind);
std::optional<ErrorKind> errorKindFromName(const std::string &name);

struct Error {
  ErrorKind kind = ErrorKind::None;
  std::string message; // one line, names the provider; never contains a key
  long httpStatus = 0; // of the last attempt, 0 when no HTTP response was received
  bool operator==(const Error &) const = default;
};

struct Reply {
  std::string text;
  std::string stopReason; // the provider's own word: end_turn, max_tokens, stop, length,
                          // completed, max_output_tokens, ...
  Usage usage;
  double latencyMs = 0;   // the successful (or last) attempt: request sent to body received
  double totalMs = 0;     // all attempts and back-off sleeps
  int attempts = 0;       // HTTP attempts made (1 = no retry)
  std::string requestId;  // the provider's request id header (request-id / x-request-id)
  std::string responseId; // the id in the body (msg_..., resp_..., chatcmpl-...)
  std::string model;      // the model that answered, as the provider reports it
  bool replayed = false;  // true when this came from a recorded transcript
  Error error;
  // Non-empty when this exchange could not be appended to the transcript (disk full, ...):
  // the run is then no longer replayable, and the caller should say so or stop.
  std::string transcriptError;
  bool ok() const { return error.kind == ErrorKind::None; }
};

// A model selection: what a preset file holds (presets.h), or what `--provider` and
// `--model` build. Never holds a key: apiKeyEnv names the variable to read it from.
struct ModelConfig {
  std::string provider; // "anthropic" | "openai" | "openai-compatible" | "replay"
  std::string model;    // provider's model id; replay: if set, recordings must match it
  // Wire format: "messages" (anthropic), "responses" or "chat" (openai), "chat"
  // (openai-compatible). Empty: the provider's default (messages / responses / chat).
  std::string api;
  std::string baseUrl;   // empty: from the environment, else the vendor default
  std::string apiKeyEnv; // empty: ANTHROPIC_API_KEY / OPENAI_API_KEY
  int maxTokens = 4096;
  std::optional<double> temperature; // unset: not sent (reasoning models reject it)
  double inputUsdPerMTok = 0;        // prices for cost reports only; 0 = unknown / free
  double outputUsdPerMTok = 0;
  std::string presetName; // where this came from, for reports
  std::string replayPath; // provider "replay": the JSONL transcript to play back
};

// Estimated cost of a reply in US dollars from the config's prices.
double costUsd(const Usage &usage, const ModelConfig &config);

struct RetryPolicy {
  int maxAttempts = 5;       // total HTTP attempts per send(), first one included
  double baseDelayMs = 1000; // back-off before retry n is base * 2^(n-1), jittered
  double maxDelayMs = 60000; // cap on one computed back-off (retry-after may exceed it)
  double budgetMs = 300000;  // cap on the sum of back-off sleeps of one send()
};

struct HttpOptions {
  long connectTimeoutMs = 15000;
  long totalTimeoutMs = 600000; // per attempt, whole transfer; long replies take minutes
  RetryPolicy retry;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string &name)>;
using SleepFn = std::function<void(double ms)>;

struct ClientOptions {
  ModelConfig model;
  HttpOptions http;
  std::shared_ptr<Transcript> transcript; // null: no transcript
  EnvLookup env;                          // null: the process environment
  SleepFn sleep;                          // null: really sleep (tests record the delays instead)
  uint64_t jitterSeed = 0;                // 0: seeded from std::random_device
};

// Thread-safe: send() may run on several threads at once; each request uses its own curl
// handle (a handle is reused only after the request that held it has finished).
class Client {
public:
  virtual ~Client() = default;
  // One request (with retries). `sample` tells apart the k samples of one conversation in
  // the transcript, and lets replay give each sample its own recording.
  virtual Reply send(const Conversation &conversation, int sample = 0) = 0;
  // k requests in flight at once, one thread each; result i is sample i.
  std::vector<Reply> sendMany(const Conversation &conversation, int k);
  // "anthropic claude-sonnet-4-5 (messages) at https://api.anthropic.com"
  virtual std::string describe() const = 0;
};

// Null and `error` set (kind Config) when the options cannot work: unknown provider or
// api, missing key for a provider that needs one, missing base URL, unreadable replay file.
std::unique_ptr<Client> makeClient(const ClientOptions &options, Error &error);

} // namespace ksynth::models
