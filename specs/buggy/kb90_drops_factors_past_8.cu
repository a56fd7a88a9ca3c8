// ksynth:spec kernelbench/90_cumprod expect=equivalence
// Buggy twin of kb90_cumprod: only the first 8 factors of a prefix are multiplied (a loop
// bound copied from an unrolled tile), so every output past column 8 is wrong. Right at every
// size the bounded check tries (each dim <= 6): only the proof over symbolic sizes sees it.
// ksynth:launch grid=((N + 255) / 256, B) block=(256)
__global__ void kb90_cumprod(const float *X, float *Y, int B, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < N) {
    float acc = 1.0f;
    for (int k = 0; k <= i; ++k)
      if (k < 8)
        acc *= X[(long long)b * N + k];
    Y[(long long)b * N + i] = acc;
  }
}
