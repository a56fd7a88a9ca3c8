// ksynth:launch grid=(((H - 1) * S - 2 * P + DIL * (K - 1) + 1 + 63) / 64, (D - 1) * S - 2 * P + DIL * (K - 1) + 1, B * CO) block=(64)
// One thread per output row (a loop over its columns): row on x, depth on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb77_conv_transposed_3d_padded_dilated_strided(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int D, int H, int W, int K, int S, int P, int DIL) {
  int OD = (D - 1) * S - 2 * P + DIL * (K - 1) + 1;
  int OH = (H - 1) * S - 2 * P + DIL * (K - 1) + 1;
  int OW = (W - 1) * S - 2 * P + DIL * (K - 1) + 1;
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
            int td = od + P - kd * DIL;
            int th = oh + P - kh * DIL;
            int tw = ow + P - kw * DIL;
            if (td >= 0 && td % S == 0 && td / S < D && th >= 0 && th % S == 0 && th / S < H && tw >= 0 && tw % S == 0 && tw / S < W)
              acc += X[((((long long)n * CI + ci) * D + td / S) * H + th / S) * W + tw / S] *
                     Wt[((((long long)ci * CO + co) * K + kd) * K + kh) * K + kw];
          }
    }
    Y[((((long long)n * CO + co) * OD + od) * OH + oh) * OW + ow] = acc;
  }
}
