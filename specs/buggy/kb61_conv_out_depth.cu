// ksynth:spec kernelbench/61_conv_transposed_3d_square expect=coverage
// Buggy twin of kb61: the depth extent of the launch from Conv3d's formula D - K + 1 instead of
// ConvTranspose3d's D + K - 1: the last 2 (K - 1) depth slices are never written.
// ksynth:launch grid=((H + K - 1 + 63) / 64, D - K + 1, B * CO) block=(64)
// One thread per output row (a loop over its columns): row on x, depth on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb61_conv_transposed_3d_square(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int H, int W, int K) {
  int OD = D + K - 1;
  int OH = H + K - 1;
  int OW = W + K - 1;
  int oh = blockIdx.x * blockDim.x + threadIdx.x;
  int od = blockIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH)
  for (int ow = 0; ow < OW; ++ow) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kd = 0; kd < K; ++kd)
        for (int kh = 0; kh < K; ++kh)
          for (int kw = 0; kw < K; ++kw) {
            int td = od - kd;
            int th = oh - kh;
            int tw = ow - kw;
            if (td >= 0 && td < D && th >= 0 && th < H && tw >= 0 && tw < W)
              acc += X[((((long long)n * CI + ci) * D + td) * H + th) * W + tw] *
                     Wt[((((long long)ci * CO + co) * K + kd) * K + kh) * K + kw];
          }
    }
    Y[((((long long)n * CO + co) * OD + od) * OH + oh) * OW + ow] = acc;
  }
}
