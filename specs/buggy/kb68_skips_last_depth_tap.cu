// ksynth:spec kernelbench/68_conv_transposed_3d_asym_kernel expect=equivalence
// Buggy twin of kb68: the depth-tap loop stops one short (kd < KD - 1).
// ksynth:launch grid=((WI + KWI - 1 + 63) / 64, D + KD - 1, B * CO) block=(64)
// One thread per output row (a loop over its columns): row on x, depth on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb68_conv_transposed_3d_asym_kernel(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int WI, int HE, int KD, int KWI, int KHE) {
  int OD = D + KD - 1;
  int OWI = WI + KWI - 1;
  int OHE = HE + KHE - 1;
  int owi = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (owi < OWI)
  for (int ohe = 0; ohe < OHE; ++ohe) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kd = 0; kd < KD - 1; ++kd)
        for (int kwi = 0; kwi < KWI; ++kwi)
          for (int khe = 0; khe < KHE; ++khe) {
            int td = od - kd;
            int twi = owi - kwi;
            int the = ohe - khe;
            if (td >= 0 && td < D && twi >= 0 && twi < WI && the >= 0 && the < HE)
              acc += X[((((long long)n * CI + ci) * D + td) * WI + twi) * HE + the] *
                     Wt[((((long long)ci * CO + co) * KD + kd) * KWI + kwi) * KHE + khe];
          }
    }
    Y[((((long long)n * CO + co) * OD + od) * OWI + owi) * OHE + ohe] = acc;
  }
}
