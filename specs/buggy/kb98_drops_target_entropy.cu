// ksynth:spec kernelbench/98_kldivloss expect=equivalence
// Buggy twin of kb98_kldivloss: the target's xlogy(t, t) term is dropped, leaving the cross
// entropy -sum t log(p) (over B) instead of the KL divergence.
// ksynth:launch grid=(1) block=(1)
// F.kl_div(log(P), T, reduction='batchmean'). One thread (a serial reference): xlogy(t, t) -
// t log(p) summed over every element, divided by the batch size B.
__global__ void kb98_kldivloss(const float *P, const float *T, float *L, int B, int N) {
  float acc = 0.0f;
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      acc += -T[(long long)b * N + n] * logf(P[(long long)b * N + n]);
  L[0] = acc / (float)B;
}
