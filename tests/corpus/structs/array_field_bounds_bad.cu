// expect: refuted bounds
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: each reads the next struct's row too: at n = 1, thread 0 reads ps[1].rows[1][2], scalar 11 of the field's 6
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
    out[i] = ps[i].rows[1][2] + ps[i + 1].rows[1][2];
}
