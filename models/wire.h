// The three wire formats: request bodies built from a Conversation, and replies parsed
// back into a Reply. Pure functions (no I/O), so each format is unit-tested on its own.
//
//  - Anthropic Messages   POST {base}/v1/messages       (base default https://api.anthropic.com)
//  - OpenAI Responses     POST {base}/responses         (base default https://api.openai.com/v1)
//  - Chat Completions     POST {base}/chat/completions  (OpenAI, vLLM, llama.cpp, Ollama)
#pragma once

#include "models/client.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ksynth::models {

enum class Api { AnthropicMessages, OpenAIResponses, ChatCompletions };
const char *apiName(Api api); // "messages" | "responses" | "chat"

// The path appended to the base URL.
const char *apiPath(Api api);

// The JSON body for `conversation`. `legacyMaxTokens` sends Chat Completions' `max_tokens`
// (what OpenAI-compatible servers read) instead of OpenAI's `max_completion_tokens`.
nlohmann::json buildRequest(Api api, const ModelConfig &config, const Conversation &conversation,
                            bool legacyMaxTokens);

// Parses a 2xx body. Fills text, stopReason, usage, responseId, model; sets
// error MalformedResponse (not the JSON the API promises), NoText (no text at all) or
// TokenLimit (cut off; text keeps what arrived). Messages name `provider`.
Reply parseReply(Api api, const std::string &body, const std::string &provider);

// The provider's own error message in an error body ({"error":{"message":...}} in both
// formats), or a trimmed prefix of the body when it is not that JSON.
std::string providerErrorMessage(const std::string &body);

// `text` with every occurrence of `secret` — and of any 8-character or longer piece of it,
// as in a provider's "Incorrect API key provided: sk-abc...xyz" — replaced by "[redacted]".
std::string redact(const std::string &text, const std::string &secret);

// Reply and Conversation as stored in transcripts.
nlohmann::json toJson(const Conversation &conversation);
nlohmann::json toJson(const Reply &reply);
Reply replyFromJson(const nlohmann::json &j); // throws nlohmann::json::exception

} // namespace ksynth::models
