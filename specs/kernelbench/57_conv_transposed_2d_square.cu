// ksynth:launch grid=((W + K - 1 + 15) / 16, (H + K - 1 + 15) / 16, B * CO) block=(16, 16)
// One thread per output element: column on x, row on y, batch * out-channel on z.
// Each thread gathers, over in-channels and taps, the input positions i with o + P - k DIL = i S
// (0 <= i < extent); the offset is tested >= 0 first, so C's truncating / and % agree with
// the spec's Euclidean div and mod.
__global__ void kb57_conv_transposed_2d_square(const float *X, const float *Wt, float *Y, int B, int CI, int CO, int H, int W, int K) {
  int OH = H + K - 1;
  int OW = W + K - 1;
  int ow = blockIdx.x * blockDim.x + threadIdx.x;
  int oh = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z / CO, co = blockIdx.z % CO;
  if (oh < OH && ow < OW) {
    float acc = 0.0f;
    for (int ci = 0; ci < CI; ++ci) {
      for (int kh = 0; kh < K; ++kh)
        for (int kw = 0; kw < K; ++kw) {
          int th = oh - kh;
          int tw = ow - kw;
          if (th >= 0 && th < H && tw >= 0 && tw < W)
            acc += X[(((long long)n * CI + ci) * H + th) * W + tw] *
                   Wt[(((long long)ci * CO + co) * K + kh) * K + kw];
        }
    }
    Y[(((long long)n * CO + co) * OH + oh) * OW + ow] = acc;
  }
}
