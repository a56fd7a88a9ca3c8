// ksynth:launch grid=(1) block=(1)
// torch.mean(torch.clamp(1 - P * T, min=0)), T broadcast along the last dim (T[n] with
// P[b][n]). One thread (a serial reference): the sum over every element over B N.
__global__ void kb100_hingeloss(const float *P, const float *T, float *L, int B, int N) {
  float acc = 0.0f;
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      acc += fmaxf(1.0f - P[(long long)b * N + n] * T[n], 0.0f);
  L[0] = acc / ((float)B * (float)N);
}
