// ksynth:launch grid=((H + KH - 1 + 63) / 64, D + KD - 1, B * CO) block=(64)
// One thread per output row (a loop over its columns): row on x, depth on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb58_conv_transposed_3d_asym(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int H, int W, int KD, int KH, int KW) {
  int OD = D + KD - 1;
  int OH = H + KH - 1;
  int OW = W + KW - 1;
  int oh = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH)
  for (int ow = 0; ow < OW; ++ow) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kd = 0; kd < KD; ++kd)
        for (int kh = 0; kh < KH; ++kh)
          for (int kw = 0; kw < KW; ++kw) {
            int td = od - kd;
            int th = oh - kh;
            int tw = ow - kw;
            if (td >= 0 && td < D && th >= 0 && th < H && tw >= 0 && tw < W)
              acc += X[((((long long)n * CI + ci) * D + td) * H + th) * W + tw] *
                     Wt[((((long long)ci * CO + co) * KD + kd) * KH + kh) * KW + kw];
          }
    }
    Y[((((long long)n * CO + co) * OD + od) * OH + oh) * OW + ow] = acc;
  }
}
