// SHA-256 (FIPS 180-4), for the hashes that proof bundles record.
#pragma once

#include <string>

namespace ksynth::util {

// Lower-case hex SHA-256 of a byte string.
std::string sha256Hex(const std::string &bytes);

} // namespace ksynth::util
