// One HTTPS POST over libcurl, no retries: the transport under the model clients.
// TLS verification is on, redirects are never followed, proxies come from the standard
// environment variables (libcurl's default), and transport failures are classified so the
// caller can decide whether to retry.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::models {

enum class Transport {
  Ok,       // an HTTP response was received in full (any status)
  Timeout,  // connect or total timeout
  Connect,  // could not connect (refused, unreachable)
  Resolve,  // DNS (host or proxy)
  Reset,    // connection reset / closed early / partial body
  Tls,      // certificate or handshake failure
  TooLarge, // response bigger than the limit
  Other,
};
const char *transportName(Transport t);

struct HttpResponse {
  Transport transport = Transport::Other;
  std::string transportMessage; // libcurl's words when transport != Ok
  long status = 0;
  std::map<std::string, std::string> headers; // names lower-cased; last value wins
  std::string body;
  double elapsedMs = 0;
};

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  long connectTimeoutMs = 15000;
  long totalTimeoutMs = 600000;
};

// Thread-safe. Keeps idle curl easy handles for reuse (connection reuse), but a handle is
// only ever used by one request at a time.
class HttpPool {
public:
  HttpPool();
  ~HttpPool();
  HttpPool(const HttpPool &) = delete;
  HttpPool &operator=(const HttpPool &) = delete;
  HttpResponse post(const HttpRequest &request);

private:
  struct Impl;
  Impl *impl_;
};

// Milliseconds a `retry-after-ms` / `retry-after` header asks to wait (seconds or an
// HTTP date); negative when there is no usable header.
double retryAfterMs(const std::map<std::string, std::string> &headers);

} // namespace ksynth::models
