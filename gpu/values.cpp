#include "gpu/values.h"

#include "util/float16.h"

#include <cmath>
#include <cstring>

namespace ksynth::gpu {

namespace {

uint64_t mix(uint64_t x) { // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class T> void put(T x, void *dst) { std::memcpy(dst, &x, sizeof x); }
template <class T> T get(const void *src) {
  T x;
  std::memcpy(&x, src, sizeof x);
  return x;
}

} // namespace

double inputValue(uint64_t seed, int repeat, int tensor, int64_t i, spec::ElemType t) {
  uint64_t h = mix(mix(mix(seed) ^ static_cast<uint64_t>(repeat)) ^ (static_cast<uint64_t>(tensor) << 40) ^
                   static_cast<uint64_t>(i));
  using spec::ElemType;
  switch (t) {
  case ElemType::F16: return (static_cast<int64_t>(h % 2049) - 1024) / 1024.0;
  case ElemType::BF16: return (static_cast<int64_t>(h % 257) - 128) / 128.0;
  case ElemType::F32: return (static_cast<int64_t>(h % ((1u << 24) + 1)) - (1 << 23)) / static_cast<double>(1 << 23);
  case ElemType::F64: return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
  default: break;
  }
  return spec::isSigned(t) ? static_cast<double>(static_cast<int64_t>(h % 17) - 8) : static_cast<double>(h % 17);
}

unsigned elemBytes(spec::ElemType t) { return spec::bitsOf(t) / 8; }

void storeElem(spec::ElemType t, double v, void *dst) {
  using spec::ElemType;
  switch (t) {
  case ElemType::F16: put(util::halfBits(v), dst); return;
  case ElemType::BF16: put(util::bf16Bits(v), dst); return;
  case ElemType::F32: put(static_cast<float>(v), dst); return;
  case ElemType::F64: put(v, dst); return;
  case ElemType::I8: put(static_cast<int8_t>(v), dst); return;
  case ElemType::I16: put(static_cast<int16_t>(v), dst); return;
  case ElemType::I32: put(static_cast<int32_t>(v), dst); return;
  case ElemType::I64: put(static_cast<int64_t>(v), dst); return;
  case ElemType::U8: put(static_cast<uint8_t>(v), dst); return;
  case ElemType::U16: put(static_cast<uint16_t>(v), dst); return;
  case ElemType::U32: put(static_cast<uint32_t>(v), dst); return;
  case ElemType::U64: put(static_cast<uint64_t>(v), dst); return;
  }
}

double loadElem(spec::ElemType t, const void *src) {
  using spec::ElemType;
  switch (t) {
  case ElemType::F16: return util::halfValue(get<uint16_t>(src));
  case ElemType::BF16: return util::bf16Value(get<uint16_t>(src));
  case ElemType::F32: return get<float>(src);
  case ElemType::F64: return get<double>(src);
  case ElemType::I8: return get<int8_t>(src);
  case ElemType::I16: return get<int16_t>(src);
  case ElemType::I32: return get<int32_t>(src);
  case ElemType::I64: return static_cast<double>(get<int64_t>(src));
  case ElemType::U8: return get<uint8_t>(src);
  case ElemType::U16: return get<uint16_t>(src);
  case ElemType::U32: return get<uint32_t>(src);
  case ElemType::U64: return static_cast<double>(get<uint64_t>(src));
  }
  return 0;
}

unsigned char poisonByte(spec::ElemType t, int repeat) {
  if (repeat % 2 == 0)
    return 0xff;
  return spec::isFloat(t) ? 0x7f : 0x5a;
}

double poisonValue(spec::ElemType t, int repeat) {
  unsigned char b[8];
  std::memset(b, poisonByte(t, repeat), sizeof b);
  return loadElem(t, b);
}

} // namespace ksynth::gpu
