#include "models/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>

namespace ksynth::models {

namespace {

// A reply larger than this is not a model reply; refuse rather than exhaust memory.
constexpr size_t kMaxBody = size_t(64) << 20;

void globalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Sink {
  HttpResponse *out;
  bool tooLarge = false;
};

size_t onBody(char *data, size_t size, size_t n, void *user) {
  auto *sink = static_cast<Sink *>(user);
  size_t len = size * n;
  if (sink->out->body.size() + len > kMaxBody) {
    sink->tooLarge = true;
    return 0; // aborts the transfer
  }
  sink->out->body.append(data, len);
  return len;
}

std::string trim(std::string s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

size_t onHeader(char *data, size_t size, size_t n, void *user) {
  auto *sink = static_cast<Sink *>(user);
  size_t len = size * n;
  std::string line(data, len);
  if (line.rfind("HTTP/", 0) == 0) {
    sink->out->headers.clear(); // a new response (after 1xx): forget the old headers
    return len;
  }
  size_t colon = line.find(':');
  if (colon == std::string::npos)
    return len;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  sink->out->headers[trim(name)] = trim(line.substr(colon + 1));
  return len;
}

Transport classify(CURLcode code) {
  switch (code) {
  case CURLE_OK:
    return Transport::Ok;
  case CURLE_OPERATION_TIMEDOUT:
    return Transport::Timeout;
  case CURLE_COULDNT_CONNECT:
    return Transport::Connect;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
    return Transport::Resolve;
  case CURLE_RECV_ERROR:
  case CURLE_SEND_ERROR:
  case CURLE_GOT_NOTHING:
  case CURLE_PARTIAL_FILE:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
    return Transport::Reset;
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_SSL_CERTPROBLEM:
  case CURLE_SSL_CIPHER:
  case CURLE_SSL_CACERT_BADFILE:
  case CURLE_SSL_ISSUER_ERROR:
  case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
  case CURLE_SSL_INVALIDCERTSTATUS:
    return Transport::Tls;
  default:
    return Transport::Other;
  }
}

} // namespace

const char *transportName(Transport t) {
  switch (t) {
  case Transport::Ok:
    return "ok";
  case Transport::Timeout:
    return "timeout";
  case Transport::Connect:
    return "connect";
  case Transport::Resolve:
    return "resolve";
  case Transport::Reset:
    return "reset";
  case Transport::Tls:
    return "tls";
  case Transport::TooLarge:
    return "too-large";
  case Transport::Other:
    return "other";
  }
  return "other";
}

struct HttpPool::Impl {
  std::mutex mu;
  std::vector<CURL *> idle;
};

HttpPool::HttpPool() : impl_(new Impl) { globalInit(); }

HttpPool::~HttpPool() {
  for (CURL *h : impl_->idle)
    curl_easy_cleanup(h);
  delete impl_;
}

HttpResponse HttpPool::post(const HttpRequest &req) {
  CURL *h = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (!impl_->idle.empty()) {
      h = impl_->idle.back();
      impl_->idle.pop_back();
    }
  }
  if (h)
    curl_easy_reset(h); // keeps the connection cache, drops every option
  else
    h = curl_easy_init();

  HttpResponse out;
  if (!h) {
    out.transportMessage = "curl_easy_init failed";
    return out;
  }
  Sink sink{&out};
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_slist *headers = nullptr;
  for (const auto &[k, v] : req.headers)
    headers = curl_slist_append(headers, (k + ": " + v).c_str());
  // No "Expect: 100-continue" round trip for large bodies.
  headers = curl_slist_append(headers, "Expect:");

  curl_easy_setopt(h, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, req.body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  // Never follow a redirect: the key is in a header and must not go to another host.
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, req.connectTimeoutMs);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, req.totalTimeoutMs);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_USERAGENT, "ksynth-models/0.1");
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &sink);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);

  auto t0 = std::chrono::steady_clock::now();
  CURLcode rc = curl_easy_perform(h);
  out.elapsedMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, nullptr);
  curl_slist_free_all(headers);

  if (sink.tooLarge) {
    out.transport = Transport::TooLarge;
    out.transportMessage = "response larger than " + std::to_string(kMaxBody >> 20) + " MiB";
  } else {
    out.transport = classify(rc);
    if (rc != CURLE_OK)
      out.transportMessage = errbuf[0] ? errbuf : curl_easy_strerror(rc);
  }
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->idle.push_back(h);
  }
  return out;
}

double retryAfterMs(const std::map<std::string, std::string> &headers) {
  auto num = [](const std::string &s, double &v) {
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end && end != s.c_str() && *end == '\0' && v >= 0;
  };
  double v = 0;
  if (auto it = headers.find("retry-after-ms"); it != headers.end() && num(it->second, v))
    return v;
  auto it = headers.find("retry-after");
  if (it == headers.end())
    return -1;
  if (num(it->second, v))
    return v * 1000;
  time_t when = curl_getdate(it->second.c_str(), nullptr);
  if (when == -1)
    return -1;
  double d = std::difftime(when, std::time(nullptr)) * 1000;
  return d > 0 ? d : 0;
}

} // namespace ksynth::models
