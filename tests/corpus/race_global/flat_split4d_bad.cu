// expect: refuted race
// args: --block 256
// note: twin of flat_split4d_ok: the channel is (idx / W) % C, not (idx / (W * H)) % C, so
// note: two threads of different rows h can land on one element
__global__ void relu4d(const float *X, float *Y, int N, int C, int H, int W) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(N >= 1);
  __requires(C >= 1);
  __requires(H >= 1);
  __requires(W >= 1);
  __requires(N * C <= 65535 && H * W <= 32768);
  __requires(__len(X) >= N * C * H * W && __len(Y) >= N * C * H * W);
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * C * H * W)
    return;
  int w = idx % W;
  int h = (idx / W) % H;
  int c = (idx / W) % C;
  int n = idx / (W * H * C);
  float v = X[((n * C + c) * H + h) * W + w];
  Y[((n * C + c) * H + h) * W + w] = v > 0.0f ? v : 0.0f;
}
