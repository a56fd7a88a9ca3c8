// Bounded equivalence: exact 128-bit rationals.
#include "verify/equiv/bounded_detail.h"

#include "util/int128.h"

#include <cmath>

namespace ksynth::equiv::bounded_detail {

// ---- exact rationals (128-bit; an overflow is reported, never wrapped) --------------------

i128 gcd128(i128 a, i128 b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::optional<Rat> mkRat(i128 n, i128 d) {
  if (d == 0)
    return std::nullopt;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  i128 g = gcd128(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  return Rat{n, d};
}

std::optional<Rat> addRat(Rat a, Rat b) {
  i128 x, y, d;
  if (__builtin_mul_overflow(a.n, b.d, &x) || __builtin_mul_overflow(b.n, a.d, &y) ||
      __builtin_add_overflow(x, y, &x) || __builtin_mul_overflow(a.d, b.d, &d))
    return std::nullopt;
  return mkRat(x, d);
}

std::optional<Rat> mulRat(Rat a, Rat b) {
  i128 n, d;
  if (__builtin_mul_overflow(a.n, b.n, &n) || __builtin_mul_overflow(a.d, b.d, &d))
    return std::nullopt;
  return mkRat(n, d);
}

// -1, 0, 1; nullopt when the difference does not fit (never approximated).
std::optional<int> cmpRat(Rat a, Rat b) {
  auto diff = addRat(a, Rat{-b.n, b.d});
  if (!diff)
    return std::nullopt;
  return diff->n < 0 ? -1 : diff->n > 0 ? 1 : 0;
}

// The exact value of a finite double, when it fits.
std::optional<Rat> exactRat(double f) {
  if (!std::isfinite(f))
    return std::nullopt;
  if (f == 0)
    return Rat{0, 1};
  int e = 0;
  double m = std::frexp(f, &e);
  i128 mant = static_cast<i128>(std::ldexp(m, 53));
  e -= 53;
  while (mant % 2 == 0 && e < 0) {
    mant /= 2;
    ++e;
  }
  if (e >= 0)
    return e > 70 ? std::nullopt : std::optional<Rat>(Rat{mant << e, 1});
  if (-e > 120)
    return std::nullopt;
  return mkRat(mant, static_cast<i128>(1) << -e);
}

double ratDouble(Rat r) { return static_cast<double>(r.n) / static_cast<double>(r.d); }

std::string i128Text(i128 v) { return util::int128Text(v); }

} // namespace ksynth::equiv::bounded_detail
