// Whole-file reads, and writes that a reader (or a kill) never sees half done.
#pragma once

#include <filesystem>
#include <string>

namespace ksynth::util {

// The file's bytes; false when it cannot be read.
bool readFile(const std::filesystem::path &path, std::string &out);

// Written to PATH.tmp, flushed, then renamed over PATH.
bool writeFileAtomic(const std::filesystem::path &path, const std::string &text);

} // namespace ksynth::util
