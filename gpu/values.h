// gpu/ element values: the seeded input generator both sides of a run share (the runner fills
// device buffers with it, ksynth recomputes the same inputs for the reference), and the
// conversion between doubles and each spec element type's bytes.
#pragma once

#include "verify/spec/spec.h"

#include <cstdint>

namespace ksynth::gpu {

// Input element `i` of tensor `tensor` in repeat `repeat`: a pure function of its arguments.
// Floats are uniform in [-1, 1] on a grid exactly representable in their type (f16: k/1024,
// bf16: k/128, f32: 24 bits, f64: 53 bits); signed integers in [-8, 8], unsigned in [0, 16].
double inputValue(uint64_t seed, int repeat, int tensor, int64_t i, spec::ElemType t);

// Bytes per element.
unsigned elemBytes(spec::ElemType t);

// Stores `v` (already representable: inputValue's values, or a scalar argument) into `dst`
// as type `t`; reads one element back as a double.
void storeElem(spec::ElemType t, double v, void *dst);
double loadElem(spec::ElemType t, const void *src);

// What an out tensor holds before each launch: every byte `poisonByte`. Floats: all ones
// (NaN in every float format) in even repeats, 0x7f bytes (3.4e38 in f32) in odd ones, so an
// element the kernel leaves alone fails even where the spec's value is NaN; integers: all
// ones (-1) and 0x5a bytes alternately. poisonValue is that element read back.
unsigned char poisonByte(spec::ElemType t, int repeat);
double poisonValue(spec::ElemType t, int repeat);

} // namespace ksynth::gpu
