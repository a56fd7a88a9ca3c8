#include "models/transcript.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace ksynth::models {

using nlohmann::json;

std::string utcNow() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms.count()));
  return out;
}

namespace {

bool writeAll(int fd, const std::string &s, std::string &error) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      error = std::strerror(errno);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

} // namespace

std::shared_ptr<Transcript> Transcript::open(const std::string &path, std::string &error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot open transcript '" + path + "': " + std::strerror(errno);
    return nullptr;
  }
  std::shared_ptr<Transcript> t(new Transcript(path, fd));
  struct stat st {};
  // Only a new regular file gets a header (not a pipe or a device).
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
    json header = {{"type", "header"},
                   {"format", "ksynth-transcript"},
                   {"version", 1},
                   {"source", "written by ksynth models/ as exchanges completed"}};
    if (!t->append(header)) {
      error = t->lastError();
      return nullptr;
    }
  }
  return t;
}

Transcript::~Transcript() { ::close(fd_); }

bool Transcript::append(json record) {
  record["time"] = utcNow();
  std::string line = record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  std::string err;
  if (!writeAll(fd_, line, err)) {
    lastError_ = "cannot append to transcript '" + path_ + "': " + err;
    return false;
  }
  return true;
}

std::string Transcript::lastError() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lastError_;
}

bool readTranscript(const std::string &path, TranscriptContents &out, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read transcript '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string all = ss.str();
  size_t pos = 0;
  int lineNo = 0;
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    bool complete = nl != std::string::npos;
    std::string line = all.substr(pos, complete ? nl - pos : std::string::npos);
    pos = complete ? nl + 1 : all.size();
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      if (!complete) {
        ++out.droppedTail;
        break;
      }
      error = path + ":" + std::to_string(lineNo) + ": not a JSON object";
      return false;
    }
    out.records.push_back(std::move(j));
    out.lines.push_back(lineNo);
  }
  return true;
}

} // namespace ksynth::models
