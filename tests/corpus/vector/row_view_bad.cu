// expect: refuted align
// args: --block 64
// note: row r of an R x C matrix starts at r * C floats: with C = 5 row 1 is not 16-byte aligned, so its float4 view faults
__global__ void row_copy4(const float *x, float *y, int R, int C) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 1024 && C <= 1024 && __len(x) >= R * C && __len(y) >= R * C);
  int r = blockIdx.x;
  if (r < R) {
    const float4 *row = reinterpret_cast<const float4 *>(x + r * C);
    for (int c = threadIdx.x; c < C / 4; c += blockDim.x) {
      float4 v = row[c];
      y[r * C + 4 * c] = v.x;
      y[r * C + 4 * c + 1] = v.y;
      y[r * C + 4 * c + 2] = v.z;
      y[r * C + 4 * c + 3] = v.w;
    }
  }
}
