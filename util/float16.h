// IEEE half (binary16) and bfloat16: rounding a double to them and their bit patterns, for
// the interpreter (which computes in double and rounds each result to its type) and for the
// GPU runner's buffers. Rounding is to nearest, ties to even, as the GPU's conversions
// (`__float2half_rn`, `__float2bfloat16_rn`) do; a magnitude past the largest finite value
// rounds to infinity, NaN stays NaN.
#pragma once

#include <cstdint>

namespace ksynth::util {

inline constexpr double kHalfMax = 65504.0;
inline constexpr double kBf16Max = 3.3895313892515355e38; // (2 - 2^-7) * 2^127

// The value of x rounded to the nearest half (bfloat16), as a double (exactly representable).
double roundToHalf(double x);
double roundToBf16(double x);

uint16_t halfBits(double x); // the bit pattern of roundToHalf(x)
double halfValue(uint16_t bits);
uint16_t bf16Bits(double x); // the bit pattern of roundToBf16(x)
double bf16Value(uint16_t bits);

} // namespace ksynth::util
