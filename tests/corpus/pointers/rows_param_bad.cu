// expect: refuted race bounds
// args: --block 64 --grid 65
// note: one row more than out has columns: out[c][64] is the scalar (c + 1) * 64, past the end
// note: of out for c = 63 (a row counted as one scalar would stay inside and hide it)
#define N 64
__global__ void transpose_rows(float (*in)[N], float out[][N], int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == N * N);
  __requires(rows == N + 1);
  int r = blockIdx.x, c = threadIdx.x;
  if (r < rows && c < N)
    out[c][r] = in[r][c];
}
