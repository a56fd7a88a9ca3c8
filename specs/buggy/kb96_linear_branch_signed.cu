// ksynth:spec kernelbench/96_huberloss expect=equivalence
// Buggy twin of kb96_huberloss: the linear branch uses the signed difference (P - T) - 0.5
// instead of |P - T| - 0.5, so targets above predictions by more than 1 give negative losses.
// ksynth:launch grid=(1) block=(1)
// F.smooth_l1_loss(P, T) (beta 1, mean). One thread (a serial reference): the loss of every
// element summed over the rows and columns, divided by the element count. |P - T| is written
// fmaxf(P - T, T - P) (ksynth reads fabsf as an unknown function, not as |x|).
__global__ void kb96_huberloss(const float *P, const float *T, float *L, int B, int N) {
  float acc = 0.0f;
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      acc += fmaxf(P[(long long)b * N + n] - T[(long long)b * N + n], T[(long long)b * N + n] - P[(long long)b * N + n]) < 1.0f
                 ? 0.5f * (P[(long long)b * N + n] - T[(long long)b * N + n]) * (P[(long long)b * N + n] - T[(long long)b * N + n])
                 : P[(long long)b * N + n] - T[(long long)b * N + n] - 0.5f;
  L[0] = acc / ((float)B * (float)N);
}
