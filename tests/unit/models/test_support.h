// Shared helpers of the models/ tests: a made-up key, an environment, a temporary
// directory, and the check that no piece of the key leaked into a text.
#pragma once

#include "models/client.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace ksynth::models::test {

// Not a real key: a distinctive string the tests look for in every output.
inline const std::string kKey = "sk-ksynthTEST-7Hq2ZxV9LmP4RtY8wK3nB6cJ";

inline EnvLookup envOf(std::map<std::string, std::string> vars) {
  return [vars](const std::string &name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end())
      return std::nullopt;
    return it->second;
  };
}

// True when `text` holds the key or any 8-character piece of it.
inline bool leaksKey(const std::string &text) {
  for (size_t i = 0; i + 8 <= kKey.size(); ++i)
    if (text.find(kKey.substr(i, 8)) != std::string::npos)
      return true;
  return false;
}

inline std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("ksynth-models-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    // Every file a test wrote is checked for the key before it goes.
    for (const auto &e : std::filesystem::recursive_directory_iterator(path))
      if (e.is_regular_file())
        CHECK_MESSAGE(!leaksKey(readFile(e.path())), "key leaked into " << e.path());
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string &name) const { return (path / name).string(); }
};

// Records the back-off delays instead of sleeping.
struct SleepLog {
  std::mutex mu;
  std::vector<double> delays;
  SleepFn fn() {
    return [this](double ms) {
      std::lock_guard<std::mutex> lock(mu);
      delays.push_back(ms);
    };
  }
};

// A live client against a loopback server: test key in the environment, short timeouts,
// recorded (not slept) back-off.
struct Setup {
  SleepLog sleeps;
  ClientOptions opts;
  Setup(const std::string &provider, const std::string &baseUrl) {
    opts.model.provider = provider;
    opts.model.model = "test-model-1";
    opts.model.maxTokens = 256;
    opts.model.baseUrl = baseUrl;
    opts.env = envOf({{"ANTHROPIC_API_KEY", kKey}, {"OPENAI_API_KEY", kKey}});
    opts.http.connectTimeoutMs = 2000;
    opts.http.totalTimeoutMs = 4000;
    opts.http.retry = {3, 100, 1000, 10000};
    opts.jitterSeed = 42;
    opts.sleep = sleeps.fn(); // record back-off delays; never really sleep
  }
  std::unique_ptr<Client> client() {
    Error err;
    auto c = makeClient(opts, err);
    REQUIRE_MESSAGE(c, err.message);
    return c;
  }
};

} // namespace ksynth::models::test
