#include "loopback_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace ksynth::models::test {

using nlohmann::json;

namespace {

// Loopback only, whatever the environment says about proxies.
[[maybe_unused]] const bool kNoProxy = [] {
  for (const char *v :
       {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
    unsetenv(v);
  return true;
}();

void sendAll(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n <= 0)
      return; // the client went away; nothing to do
    done += static_cast<size_t>(n);
  }
}

const char *reason(int status) {
  switch (status) {
  case 200:
    return "OK";
  case 307:
    return "Temporary Redirect";
  case 400:
    return "Bad Request";
  case 401:
    return "Unauthorized";
  case 403:
    return "Forbidden";
  case 404:
    return "Not Found";
  case 429:
    return "Too Many Requests";
  case 500:
    return "Internal Server Error";
  case 503:
    return "Service Unavailable";
  default:
    return "Status";
  }
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

Action Action::reply(int status, std::string body,
                     std::vector<std::pair<std::string, std::string>> headers) {
  Action a;
  a.status = status;
  a.body = std::move(body);
  a.headers = std::move(headers);
  return a;
}

Action Action::json(int status, const nlohmann::json &body,
                    std::vector<std::pair<std::string, std::string>> headers) {
  headers.emplace_back("Content-Type", "application/json");
  return reply(status, body.dump(), std::move(headers));
}

Action Action::stall() {
  Action a;
  a.kind = Kind::Stall;
  return a;
}

Action Action::reset() {
  Action a;
  a.kind = Kind::Reset;
  return a;
}

Action Action::shortBody(std::string body, size_t claimedLength) {
  Action a;
  a.kind = Kind::ShortBody;
  a.body = std::move(body);
  a.claimedLength = claimedLength;
  return a;
}

json anthropicReply(const std::string &text, const std::string &stopReason, int in, int out) {
  return {{"id", "msg_test_0001"},
          {"type", "message"},
          {"role", "assistant"},
          {"model", "test-model-served"},
          {"content", {{{"type", "text"}, {"text", text}}}},
          {"stop_reason", stopReason},
          {"usage", {{"input_tokens", in}, {"output_tokens", out}}}};
}

json responsesReply(const std::string &text, const std::string &status,
                    const std::string &incompleteReason, int in, int out) {
  json r = {{"id", "resp_test_0001"},
            {"object", "response"},
            {"status", status},
            {"model", "test-model-served"},
            {"output",
             {{{"type", "reasoning"}, {"id", "rs_1"}, {"summary", json::array()}},
              {{"type", "message"},
               {"id", "msg_1"},
               {"role", "assistant"},
               {"content", {{{"type", "output_text"}, {"text", text}}}}}}},
            {"usage",
             {{"input_tokens", in},
              {"output_tokens", out},
              {"output_tokens_details", {{"reasoning_tokens", 5}}}}}};
  r["incomplete_details"] =
      incompleteReason.empty() ? json(nullptr) : json{{"reason", incompleteReason}};
  return r;
}

json chatReply(const std::string &text, const std::string &finishReason, int in, int out) {
  return {{"id", "chatcmpl-test-0001"},
          {"object", "chat.completion"},
          {"model", "test-model-served"},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", text}}},
             {"finish_reason", finishReason}}}},
          {"usage", {{"prompt_tokens", in}, {"completion_tokens", out}}}};
}

LoopbackServer::LoopbackServer() {
  listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listenFd_ < 0)
    throw std::runtime_error("socket failed");
  int one = 1;
  setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listenFd_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
      ::listen(listenFd_, 64) != 0)
    throw std::runtime_error("bind/listen on 127.0.0.1 failed");
  socklen_t len = sizeof addr;
  getsockname(listenFd_, reinterpret_cast<sockaddr *>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptThread_ = std::thread([this] { acceptLoop(); });
}

LoopbackServer::~LoopbackServer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  ::shutdown(listenFd_, SHUT_RDWR);
  acceptThread_.join();
  ::close(listenFd_);
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    workers.swap(workers_);
  }
  for (auto &t : workers)
    t.join();
}

void LoopbackServer::push(Action action) {
  std::lock_guard<std::mutex> lock(mu_);
  script_.push_back(std::move(action));
}

void LoopbackServer::push(Action action, int times) {
  for (int i = 0; i < times; ++i)
    push(action);
}

std::vector<Received> LoopbackServer::received() const {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

int LoopbackServer::peakConcurrent() const {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

void LoopbackServer::acceptLoop() {
  while (true) {
    int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) {
      if (fd >= 0)
        ::close(fd);
      return;
    }
    if (fd < 0)
      continue;
    workers_.emplace_back([this, fd] { serve(fd); });
  }
}

Action LoopbackServer::next(const Received &req) {
  if (!script_.empty()) {
    Action a = std::move(script_.front());
    script_.pop_front();
    return a;
  }
  std::string last;
  try {
    json body = req.json();
    const json &turns = body.contains("messages") ? body["messages"] : body["input"];
    for (const auto &t : turns)
      if (t.value("role", "") == "user")
        last = t.value("content", "");
  } catch (const json::exception &) {
    last = "(unparseable request)";
  }
  std::string text = "echo: " + last;
  if (endsWith(req.target, "/v1/messages"))
    return Action::json(200, anthropicReply(text), {{"request-id", "req_test_default"}});
  if (endsWith(req.target, "/responses"))
    return Action::json(200, responsesReply(text), {{"x-request-id", "req_test_default"}});
  if (endsWith(req.target, "/chat/completions"))
    return Action::json(200, chatReply(text), {{"x-request-id", "req_test_default"}});
  return Action::json(404, {{"error", {{"message", "no such endpoint " + req.target}}}});
}

void LoopbackServer::serve(int fd) {
  timeval tv{5, 0}; // a test client never takes this long; do not hang the suite
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string buf;
  char chunk[16384];
  size_t headerEnd;
  while ((headerEnd = buf.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      ::close(fd);
      return;
    }
    buf.append(chunk, static_cast<size_t>(n));
  }
  Received req;
  size_t lineEnd = buf.find("\r\n");
  std::string requestLine = buf.substr(0, lineEnd);
  size_t sp1 = requestLine.find(' '), sp2 = requestLine.rfind(' ');
  req.method = requestLine.substr(0, sp1);
  req.target = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = lineEnd + 2;
  while (pos < headerEnd) {
    size_t e = buf.find("\r\n", pos);
    std::string line = buf.substr(pos, e - pos);
    pos = e + 2;
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    size_t v = line.find_first_not_of(' ', colon + 1);
    req.headers[name] = v == std::string::npos ? "" : line.substr(v);
  }
  size_t want = req.has("content-length") ? std::stoul(req.header("content-length")) : 0;
  req.body = buf.substr(headerEnd + 4);
  while (req.body.size() < want) {
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0)
      break;
    req.body.append(chunk, static_cast<size_t>(n));
  }

  Action a;
  {
    std::unique_lock<std::mutex> lock(mu_);
    req.arrivedMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_)
            .count();
    received_.push_back(req);
    a = next(req);
    ++inFlight_;
    peak_ = std::max(peak_, inFlight_);
    cv_.notify_all();
    // The peak, not the current count: the first ones released may already be done when a
    // later waiter wakes.
    if (a.waitForConcurrent > 0)
      cv_.wait_for(lock, std::chrono::seconds(5),
                   [&] { return stopping_ || peak_ >= a.waitForConcurrent; });
  }

  switch (a.kind) {
  case Action::Kind::Respond:
  case Action::Kind::ShortBody: {
    std::string head = "HTTP/1.1 " + std::to_string(a.status) + " " + reason(a.status) + "\r\n";
    for (const auto &[k, v] : a.headers)
      head += k + ": " + v + "\r\n";
    size_t length = a.kind == Action::Kind::ShortBody ? a.claimedLength : a.body.size();
    head += "Content-Length: " + std::to_string(length) + "\r\nConnection: close\r\n\r\n";
    sendAll(fd, head + a.body);
    ::shutdown(fd, SHUT_WR);
    // Drain until the client closes, so the close does not turn into a reset.
    while (::recv(fd, chunk, sizeof chunk, 0) > 0) {
    }
    ::close(fd);
    break;
  }
  case Action::Kind::Stall: {
    // Say nothing until the client gives up (it closes) or the server stops.
    timeval shortTv{0, 50000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &shortTv, sizeof shortTv);
    while (true) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stopping_)
          break;
      }
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        break;
    }
    ::close(fd);
    break;
  }
  case Action::Kind::Reset: {
    linger lg{1, 0}; // close() now sends RST instead of FIN
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    ::close(fd);
    break;
  }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    --inFlight_;
  }
}

} // namespace ksynth::models::test
