// ksynth:spec kernelbench/100_hingeloss expect=equivalence
// Buggy twin of kb100_hingeloss: targets broadcast along the batch dim (T[b] with P[b][n]), as
// if targets were (B, 1); PyTorch aligns trailing dims, so T[n] multiplies P[b][n].
// ksynth:launch grid=(1) block=(1)
// torch.mean(torch.clamp(1 - P * T, min=0)), T broadcast along the last dim (T[n] with
// P[b][n]). One thread (a serial reference): the sum over every element over B N.
__global__ void kb100_hingeloss(const float *P, const float *T, float *L, int B, int N) {
  float acc = 0.0f;
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      acc += fmaxf(1.0f - P[(long long)b * N + n] * T[b], 0.0f);
  L[0] = acc / ((float)B * (float)N);
}
