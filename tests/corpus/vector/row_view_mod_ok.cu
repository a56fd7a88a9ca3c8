// expect: proven
// args: --block 64
// note: row_view_bad.cu with C % 4 == 0 required: row r starts at r * C floats, a multiple of 4 because C is one (the checker adds that product lemma; without it the nonlinear query timed out)
__global__ void row_copy4(const float *x, float *y, int R, int C) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(R >= 0 && C >= 0 && R <= 1024 && C <= 1024 && __len(x) >= R * C && __len(y) >= R * C);
  __requires(C % 4 == 0);
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
