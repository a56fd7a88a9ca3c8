#include "util/float16.h"

#include <cmath>
#include <cstring>

namespace ksynth::util {

namespace {

// x rounded to a binary format with `digits` significant bits (the implicit one included),
// smallest normal exponent `emin` and largest finite value `maxFinite`. Below 2^emin the
// spacing stays 2^(emin - digits + 1) (subnormals).
double roundToFormat(double x, int digits, int emin, double maxFinite) {
  if (!std::isfinite(x) || x == 0)
    return x;
  int e = 0;
  (void)std::frexp(x, &e); // |x| in [2^(e-1), 2^e)
  int lead = e - 1 < emin ? emin : e - 1;
  double ulp = std::ldexp(1.0, lead - (digits - 1));
  // x / ulp is exact (a power-of-two scaling far from double's limits); rint rounds ties to
  // even in the default rounding mode, which the interpreter never changes.
  double r = std::rint(x / ulp) * ulp;
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, x);
  return r;
}

} // namespace

double roundToHalf(double x) { return roundToFormat(x, 11, -14, kHalfMax); }
double roundToBf16(double x) { return roundToFormat(x, 8, -126, kBf16Max); }

uint16_t halfBits(double x) {
  double r = roundToHalf(x);
  uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  if (std::isnan(r))
    return 0x7e00;
  double a = std::fabs(r);
  if (std::isinf(a))
    return static_cast<uint16_t>(sign | 0x7c00);
  if (a < std::ldexp(1.0, -14)) // subnormal (or zero): multiples of 2^-24
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(a, 24)));
  int e = 0;
  double m = std::frexp(a, &e); // a = m 2^e, m in [0.5, 1)
  uint16_t frac = static_cast<uint16_t>(std::ldexp(m, 11)) & 0x3ff;
  return static_cast<uint16_t>(sign | ((e - 1 + 15) << 10) | frac);
}

double halfValue(uint16_t h) {
  double sign = (h & 0x8000) ? -1 : 1;
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0)
    return sign * std::ldexp(m, -24);
  if (e == 31)
    return m ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(m | 0x400, e - 25);
}

uint16_t bf16Bits(double x) {
  double r = roundToBf16(x);
  if (std::isnan(r))
    return 0x7fc0;
  float f = static_cast<float>(r); // exact: every bfloat16 is a float
  uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  return static_cast<uint16_t>(b >> 16);
}

double bf16Value(uint16_t h) {
  uint32_t b = static_cast<uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &b, 4);
  return f;
}

} // namespace ksynth::util
