// models/presets: the shipped presets load and never hold keys; bad presets are refused.
#include "models/presets.h"

#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace ksynth::models;
using namespace ksynth::models::test;
using nlohmann::json;

namespace {
const std::string kPresetDir =
    (std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path() /
     "models" / "presets")
        .string();
} // namespace

TEST_CASE("every shipped preset loads, names a provider and a model, and holds no key") {
  auto names = listPresets(kPresetDir);
  REQUIRE(names.size() >= 4);
  CHECK(std::find(names.begin(), names.end(), "claude-sonnet-4-5") != names.end());
  CHECK(std::find(names.begin(), names.end(), "gpt-5-codex") != names.end());
  for (const auto &n : names) {
    CAPTURE(n);
    std::string err;
    auto p = loadPreset(n, err, kPresetDir);
    REQUIRE_MESSAGE(p, err);
    CHECK(p->presetName == n);
    CHECK_FALSE(p->model.empty());
    CHECK(p->maxTokens > 0);
    std::string text = readFile(std::filesystem::path(kPresetDir) / (n + ".json"));
    CHECK(text.find("sk-") == std::string::npos);
    // Every preset makes a working client once its key is in the environment.
    ClientOptions o;
    o.model = *p;
    o.env = envOf({{"ANTHROPIC_API_KEY", kKey}, {"OPENAI_API_KEY", kKey}});
    Error e;
    CHECK_MESSAGE(makeClient(o, e) != nullptr, e.message);
  }
  std::string err;
  auto codex = loadPreset("gpt-5-codex", err, kPresetDir);
  REQUIRE(codex);
  CHECK(codex->provider == "openai");
  CHECK(codex->api == "responses");
  CHECK_FALSE(codex->temperature.has_value());
  // The compiled-in default directory is this source tree's.
  CHECK(std::filesystem::equivalent(presetDir(), kPresetDir));
}

TEST_CASE("a preset with a key, an unknown field or a bad provider is refused") {
  std::string err;
  json good = {{"provider", "anthropic"}, {"model", "m"}, {"max_tokens", 10}};
  auto p = presetFromJson(good, "g", err);
  REQUIRE(p);
  CHECK(p->inputUsdPerMTok == 0);
  CHECK_FALSE(p->temperature.has_value());

  json withKey = good;
  withKey["api_key"] = "sk-oops";
  CHECK_FALSE(presetFromJson(withKey, "k", err));
  CHECK(err == "preset 'k': field 'api_key' looks like a credential; presets never hold keys "
               "(name the environment variable in api_key_env)");
  json typo = good;
  typo["temprature"] = 0.5;
  CHECK_FALSE(presetFromJson(typo, "t", err));
  CHECK(err == "preset 't': unknown field 'temprature'");
  json prov = good;
  prov["provider"] = "replay";
  CHECK_FALSE(presetFromJson(prov, "p", err));
  CHECK(err == "preset 'p': unknown provider 'replay'");
  json missing = {{"provider", "openai"}};
  CHECK_FALSE(presetFromJson(missing, "m", err));
  CHECK(err.rfind("preset 'm': ", 0) == 0);

  CHECK_FALSE(loadPreset("no-such-preset", err, kPresetDir));
  CHECK(err.find("no model preset 'no-such-preset'") != std::string::npos);
  CHECK(err.find("known: ") != std::string::npos);
  CHECK(err.find("claude-sonnet-4-5") != std::string::npos);

  TempDir dir;
  std::string path = dir.file("mine.json");
  std::ofstream(path) << R"({"provider":"openai-compatible","model":"llama","max_tokens":99,
    "temperature":0.2,"base_url":"http://localhost:8080/v1","api_key_env":"MY_KEY",
    "price_usd_per_mtok":{"input":0.5,"output":1.5}})";
  auto mine = loadPreset(path, err);
  REQUIRE_MESSAGE(mine, err);
  CHECK(mine->presetName == "mine");
  CHECK(mine->apiKeyEnv == "MY_KEY");
  CHECK(mine->temperature == 0.2);
  CHECK(mine->baseUrl == "http://localhost:8080/v1");
}

TEST_CASE("cost estimate from the preset's prices") {
  ModelConfig m;
  m.inputUsdPerMTok = 3;
  m.outputUsdPerMTok = 15;
  CHECK(costUsd(Usage{1000000, 200000, 0, 0}, m) == doctest::Approx(6.0));
  CHECK(costUsd(Usage{}, m) == 0);
}
