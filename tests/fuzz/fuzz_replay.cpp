// Fuzz target: the replay provider's transcript reader (models/transcript.h) and the
// replay client built on it (models/replay.h), on an arbitrary transcript file.
#include "models/client.h"
#include "models/replay.h"
#include "models/transcript.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path = "/tmp/ksynth-fuzz-replay-" + std::to_string(getpid()) + ".jsonl";
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  ksynth::models::TranscriptContents contents;
  std::string error;
  if (!ksynth::models::readTranscript(path, contents, error) && error.empty())
    __builtin_trap(); // a failure always says why
  ksynth::models::ClientOptions options;
  options.model.provider = "replay";
  options.model.replayPath = path;
  ksynth::models::Error err;
  auto client = ksynth::models::makeReplayClient(options, err);
  (void)client;
  return 0;
}
