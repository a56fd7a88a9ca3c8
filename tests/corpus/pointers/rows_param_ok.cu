// expect: proven
// args: --block 64 --grid 64
// note: pointers to rows (`float (*in)[N]`, the parameter `float out[][N]`, a device function's
// note: `float m[][N]`): in[r][c] is the scalar r * N + c of the buffer; every cell of out is
// note: written once and read within its length
#define N 64
__device__ float at(float m[][N], int r, int c) { return m[r][c]; }
__global__ void transpose_rows(float (*in)[N], float out[][N], int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == N * N);
  __requires(rows == N);
  int r = blockIdx.x, c = threadIdx.x;
  if (r < rows && c < N)
    out[c][r] = at(in, r, c);
}
