// ksynth:launch grid=(1) block=(1)
// nn.TripletMarginLoss(margin=1.0) (p 2, eps 1e-6 inside the norm, mean). One thread (a serial
// reference): per row the two distances, the clamped margin term, then the mean over rows.
__global__ void kb99_tripletmarginloss(const float *A, const float *P, const float *Ng, float *L,
                                       int B, int D) {
  float tot = 0.0f;
  for (int b = 0; b < B; ++b) {
    float sp = 0.0f;
    for (int d = 0; d < D; ++d)
      sp += (A[(long long)b * D + d] - P[(long long)b * D + d] + 1e-6f) * (A[(long long)b * D + d] - P[(long long)b * D + d] + 1e-6f);
    float sn = 0.0f;
    for (int d = 0; d < D; ++d)
      sn += (A[(long long)b * D + d] - Ng[(long long)b * D + d] + 1e-6f) * (A[(long long)b * D + d] - Ng[(long long)b * D + d] + 1e-6f);
    tot += fmaxf(sqrtf(sp) - sqrtf(sn) + 1.0f, 0.0f);
  }
  L[0] = tot / (float)B;
}
