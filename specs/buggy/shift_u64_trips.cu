// ksynth:spec shift_u64_trips expect=equivalence
// Found by review: a 64-bit right-shift loop from 2^63 was counted as 63 iterations (values past 62 shifts were taken as 0).
// ksynth:launch grid=(1) block=(1)
// The loop runs 64 times (m = 2^63 halves to 0 after 64 shifts): Y = 64 X[0].
__global__ void ctc_u64(const float *X, float *Y) {
  float acc = 0.0f;
  unsigned long long m = 1;
  m = m << 63;
  for (; m > 0; m >>= 1)
    acc += X[0];
  Y[0] = acc;
}
