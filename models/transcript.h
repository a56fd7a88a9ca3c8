// JSONL transcripts of model exchanges: one JSON object per line, appended and written
// through to the file as each exchange completes, so a killed run loses nothing. Replay
// (provider "replay") reads them back.
//
// Records (field "type"):
//   header    first line of a new file: format, version, what wrote it
//   exchange  one send(): provider, api, url, model, sample, conversation, request body,
//             HTTP status, response (JSON, or raw text when not JSON), reply (text, usage,
//             timing, attempts, ids, error). Never a key: auth headers are not recorded,
//             and every string is passed through redact() before it is written.
//   retry     one failed attempt that is about to be retried: status, error, delay
// Readers ignore types they do not know.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ksynth::models {

class Transcript {
public:
  // Opens `path` for appending, creating it (mode 0600: prompts may be private) with a
  // header line when it is a new or empty regular file. Null and `error` set on failure.
  static std::shared_ptr<Transcript> open(const std::string &path, std::string &error);
  ~Transcript();
  Transcript(const Transcript &) = delete;
  Transcript &operator=(const Transcript &) = delete;

  // Appends `record` as one line with a "time" field (UTC, ms) added. Thread-safe; one
  // write(2) per line on an O_APPEND descriptor. False (and lastError(), which names the
  // file) on I/O failure.
  bool append(nlohmann::json record);
  std::string lastError() const;
  const std::string &path() const { return path_; }

private:
  Transcript(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_;
  mutable std::mutex mu_;
  std::string lastError_;
};

// Every record of a transcript. A last line without its newline (the writer was killed
// mid-line) is dropped and counted in `droppedTail`; any other malformed line is an
// error naming the file and line.
struct TranscriptContents {
  std::vector<nlohmann::json> records;
  std::vector<int> lines; // line number of each record
  int droppedTail = 0;
};
bool readTranscript(const std::string &path, TranscriptContents &out, std::string &error);

// Current UTC time as 2025-01-31T12:34:56.789Z.
std::string utcNow();

} // namespace ksynth::models
