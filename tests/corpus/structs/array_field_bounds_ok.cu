// expect: proven
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: each thread reads only its own struct: ps[i].rows[1][2] is scalar 6 i + 5 of the field's array, below 6 n
struct Grid {
  float rows[2][3];
  int tag;
};

__global__ void peek(const Grid *ps, float *out, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(ps) >= n && __len(out) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ps[i].rows[1][2] + ps[i].rows[0][0];
}
