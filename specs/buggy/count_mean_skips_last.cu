// ksynth:spec count_mean expect=equivalence
// ksynth:launch grid=(1) block=(1)
// Bug: the loop stops one entry short. The spec counts the kept entries with an Int sum of
// (ite ... 0 1) under a Real division: the prover compares the kernel's float count with the
// spec's Int count (it aborted on the mismatch of sorts before).
__global__ void count_mean(const float *X, const long long *T, float *L, int B) {
  float s = 0.0f, n = 0.0f;
  for (int b = 0; b < B - 1; ++b)
    if (T[b] != -100) {
      s += X[b];
      n += 1.0f;
    }
  L[0] = s / n;
}
