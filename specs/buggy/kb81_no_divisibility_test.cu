// ksynth:spec kernelbench/81_conv_transposed_2d_dilated_padded_strided expect=equivalence
// Buggy twin of kb81: every tap whose offset lies in range is taken with a floor quotient,
// without testing that the offset is a multiple of the stride.
// ksynth:launch grid=(((W - 1) * S - 2 * P + DIL * (K - 1) + 1 + 31) / 32, ((H - 1) * S - 2 * P + DIL * (K - 1) + 1 + 7) / 8, B * CO) block=(32, 8)
// One thread per output element: column on x, row on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb81_conv_transposed_2d_dilated_padded_strided(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int K, int S, int P, int DIL) {
  int OH = (H - 1) * S - 2 * P + DIL * (K - 1) + 1;
  int OW = (W - 1) * S - 2 * P + DIL * (K - 1) + 1;
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kh = 0; kh < K; ++kh)
        for (int kw = 0; kw < K; ++kw) {
          int th = oh + P - kh * DIL;
          int tw = ow + P - kw * DIL;
          if (th >= 0 && th / S < H && tw >= 0 && tw / S < W)
            acc += X[(((long long)n * CI + ci) * H + th / S) * W + tw / S] *
                   Wt[(((long long)ci * CO + co) * K + kh) * K + kw];
        }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
