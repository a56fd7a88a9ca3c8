// A real HTTP/1.1 server on 127.0.0.1 (ephemeral port), written for these tests: it
// records every request it receives and answers each with the next scripted Action —
// a response, a stall, a connection reset or a body shorter than its Content-Length.
// With nothing scripted it answers in the wire format the path asks for (Anthropic
// Messages, OpenAI Responses, Chat Completions) with the text "echo: <last user turn>".
// Everything it sends is made up by the tests; none of it comes from a real model.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ksynth::models::test {

struct Received {
  std::string method;
  std::string target;                         // path and query
  std::map<std::string, std::string> headers; // names lower-cased
  std::string body;
  double arrivedMs = 0; // since the server started
  nlohmann::json json() const { return nlohmann::json::parse(body); }
  bool has(const std::string &header) const { return headers.count(header) != 0; }
  std::string header(const std::string &name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

struct Action {
  enum class Kind { Respond, Stall, Reset, ShortBody };
  Kind kind = Kind::Respond;
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  size_t claimedLength = 0;  // ShortBody: the Content-Length announced
  int waitForConcurrent = 0; // hold the answer until this many requests are in (max 5 s)

  static Action reply(int status, std::string body,
                      std::vector<std::pair<std::string, std::string>> headers = {});
  static Action json(int status, const nlohmann::json &body,
                     std::vector<std::pair<std::string, std::string>> headers = {});
  static Action stall();
  static Action reset();
  static Action shortBody(std::string body, size_t claimedLength);
};

class LoopbackServer {
public:
  LoopbackServer();
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer &) = delete;
  LoopbackServer &operator=(const LoopbackServer &) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  void push(Action action);
  void push(Action action, int times);
  std::vector<Received> received() const;
  int peakConcurrent() const;

private:
  void acceptLoop();
  void serve(int fd);
  Action next(const Received &req);

  int listenFd_ = -1;
  int port_ = 0;
  std::thread acceptThread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::deque<Action> script_;
  std::vector<Received> received_;
  std::vector<std::thread> workers_;
  int inFlight_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  int peak_ = 0;
};

// Replies in each wire format, as the tests' fake provider sends them.
nlohmann::json anthropicReply(const std::string &text, const std::string &stopReason = "end_turn",
                              int in = 12, int out = 34);
nlohmann::json responsesReply(const std::string &text, const std::string &status = "completed",
                              const std::string &incompleteReason = "", int in = 12, int out = 34);
nlohmann::json chatReply(const std::string &text, const std::string &finishReason = "stop",
                         int in = 12, int out = 34);

} // namespace ksynth::models::test
