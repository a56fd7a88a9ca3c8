// Model presets: small JSON files (models/presets/NAME.json) that name a provider, model
// id, token limit, temperature and prices, selectable by name (`--model-preset NAME`).
// A preset never holds a key; `api_key_env` may name the variable to read one from.
//
//   {"provider": "anthropic", "model": "claude-sonnet-4-5", "max_tokens": 16000,
//    "temperature": 0.7, "price_usd_per_mtok": {"input": 3, "output": 15},
//    "note": "..."}
// Optional: "api" (messages | responses | chat), "base_url", "api_key_env", "note".
// Unknown fields are errors (a typo must not silently change a run).
#pragma once

#include "models/client.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ksynth::models {

// $KSYNTH_PRESET_DIR when set, else the presets directory of the source tree this was
// built from.
std::string presetDir();

// `nameOrPath` is a preset name (looked up as DIR/NAME.json) or a path to a .json file.
// `dir` empty: presetDir().
std::optional<ModelConfig> loadPreset(const std::string &nameOrPath, std::string &error,
                                      const std::string &dir = "");
std::optional<ModelConfig> presetFromJson(const nlohmann::json &j, const std::string &name,
                                          std::string &error);
// Names of the presets in `dir` (default presetDir()), sorted.
std::vector<std::string> listPresets(const std::string &dir = "");

} // namespace ksynth::models
