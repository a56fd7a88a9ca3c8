// expect: refuted bounds
// args: --block 32 --grid 8
// note: p += r, ++p twice and --p once leave p one row past r: the last block reads past the
// note: end of in (a step of one scalar would stay inside and hide it)
#define N 32
__global__ void add_rows(float (*in)[N], float *out, int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == rows * N);
  __requires(rows == 8);
  int r = blockIdx.x, c = threadIdx.x;
  float (*p)[N] = in;
  p += r;
  ++p;
  ++p;
  --p;
  out[r * N + c] = p[0][c];
}
