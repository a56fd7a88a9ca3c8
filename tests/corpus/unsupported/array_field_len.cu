// expect: unknown
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: every field of Row is an array, so __len(ps) (a number of structs) is not the length
// note: of any field's array: refused, and the bounds are not proven (ps[i + 1] is past the end)
struct Row {
  float v[4];
};

__global__ void shift(const Row *ps, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(ps) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ps[i + 1].v[0];
}
