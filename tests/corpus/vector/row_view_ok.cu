// expect: proven
// args: --block 64
// note: the twin of row_view_bad.cu: the row length is 4 * C4 floats, so every row starts 16-byte aligned (row_view_mod_ok.cu requires C % 4 == 0 instead)
__global__ void row_copy4(const float *x, float *y, int R, int C4) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C4 >= 0 && R <= 1024 && C4 <= 256);
  __requires(__len(x) >= R * 4 * C4 && __len(y) >= R * 4 * C4);
  int r = blockIdx.x;
  int C = 4 * C4;
  if (r < R) {
    const float4 *row = reinterpret_cast<const float4 *>(x + r * C);
    for (int c = threadIdx.x; c < C4; c += blockDim.x) {
      float4 v = row[c];
      y[r * C + 4 * c] = v.x;
      y[r * C + 4 * c + 1] = v.y;
      y[r * C + 4 * c + 2] = v.z;
      y[r * C + 4 * c + 3] = v.w;
    }
  }
}
