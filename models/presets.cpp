#include "models/presets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#ifndef KSYNTH_PRESET_DIR
#define KSYNTH_PRESET_DIR "models/presets"
#endif

namespace ksynth::models {

using nlohmann::json;
namespace fs = std::filesystem;

std::string presetDir() {
  const char *env = std::getenv("KSYNTH_PRESET_DIR");
  return env && *env ? env : KSYNTH_PRESET_DIR;
}

std::optional<ModelConfig> presetFromJson(const json &j, const std::string &name,
                                          std::string &error) {
  auto bad = [&](const std::string &msg) -> std::optional<ModelConfig> {
    error = "preset '" + name + "': " + msg;
    return std::nullopt;
  };
  if (!j.is_object())
    return bad("not a JSON object");
  static const std::set<std::string> known = {
      "provider",           "model", "api", "base_url", "api_key_env", "max_tokens", "temperature",
      "price_usd_per_mtok", "note"};
  for (const auto &[k, v] : j.items()) {
    std::string lower = k;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower != "api_key_env" &&
        (lower.find("key") != std::string::npos || lower.find("secret") != std::string::npos ||
         lower.find("token") != std::string::npos) &&
        lower != "max_tokens")
      return bad("field '" + k +
                 "' looks like a credential; presets never hold keys (name the environment "
                 "variable in api_key_env)");
    if (!known.count(k))
      return bad("unknown field '" + k + "'");
  }
  ModelConfig c;
  c.presetName = name;
  try {
    c.provider = j.at("provider").get<std::string>();
    c.model = j.at("model").get<std::string>();
    c.api = j.value("api", "");
    c.baseUrl = j.value("base_url", "");
    c.apiKeyEnv = j.value("api_key_env", "");
    c.maxTokens = j.at("max_tokens").get<int>();
    if (j.contains("temperature") && !j["temperature"].is_null())
      c.temperature = j["temperature"].get<double>();
    if (j.contains("price_usd_per_mtok")) {
      const json &p = j["price_usd_per_mtok"];
      c.inputUsdPerMTok = p.at("input").get<double>();
      c.outputUsdPerMTok = p.at("output").get<double>();
    }
  } catch (const json::exception &e) {
    return bad(e.what());
  }
  static const std::set<std::string> providers = {"anthropic", "openai", "openai-compatible"};
  if (!providers.count(c.provider))
    return bad("unknown provider '" + c.provider + "'");
  if (c.maxTokens <= 0)
    return bad("max_tokens must be positive");
  return c;
}

std::optional<ModelConfig> loadPreset(const std::string &nameOrPath, std::string &error,
                                      const std::string &dir) {
  fs::path path;
  std::string name = nameOrPath;
  if (nameOrPath.find('/') != std::string::npos || fs::path(nameOrPath).extension() == ".json") {
    path = nameOrPath;
    name = fs::path(nameOrPath).stem().string();
  } else {
    path = fs::path(dir.empty() ? presetDir() : dir) / (nameOrPath + ".json");
  }
  std::ifstream in(path);
  if (!in) {
    std::string known;
    for (const auto &n : listPresets(dir))
      known += (known.empty() ? "" : ", ") + n;
    error = "no model preset '" + nameOrPath + "' (" + path.string() +
            " not readable); known: " + (known.empty() ? "none" : known);
    return std::nullopt;
  }
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    error = "preset '" + name + "': " + path.string() + " is not valid JSON";
    return std::nullopt;
  }
  return presetFromJson(j, name, error);
}

std::vector<std::string> listPresets(const std::string &dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir.empty() ? presetDir() : dir, ec))
    if (e.path().extension() == ".json")
      out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace ksynth::models
