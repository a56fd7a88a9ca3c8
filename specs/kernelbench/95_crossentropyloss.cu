// ksynth:launch grid=(1) block=(1)
// F.cross_entropy(X, T) (ignore_index -100, mean over the rows kept). One thread (a serial
// reference): per row, the max, the sum of exp(x - max), the target's logit (picked by
// comparing each column with the target, so no read depends on the target's value), then
// the mean over the kept rows.
__global__ void kb95_crossentropyloss(const float *X, const long long *T, float *L, int B, int C) {
  float tot = 0.0f;
  float cnt = 0.0f;
  for (int b = 0; b < B; ++b) {
    float m = X[(long long)b * C];
    for (int c = 1; c < C; ++c)
      m = fmaxf(m, X[(long long)b * C + c]);
    float s = 0.0f;
    for (int c = 0; c < C; ++c)
      s += expf(X[(long long)b * C + c] - m);
    float xt = 0.0f;
    for (int c = 0; c < C; ++c)
      if (c == T[b])
        xt += X[(long long)b * C + c];
    float w = T[b] == -100 ? 0.0f : 1.0f; // ignore_index
    tot += w * (logf(s) + m - xt);
    cnt += w;
  }
  L[0] = tot / cnt;
}
