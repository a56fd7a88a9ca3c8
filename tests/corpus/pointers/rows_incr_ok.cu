// expect: proven
// args: --block 32 --grid 8
// note: ++p and --p on a pointer to rows move it by a whole row: p += r, ++p, --p is row r
#define N 32
__global__ void add_rows(float (*in)[N], float *out, int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == rows * N);
  __requires(rows == 8);
  int r = blockIdx.x, c = threadIdx.x;
  float (*p)[N] = in;
  p += r;
  ++p;
  --p;
  out[r * N + c] = p[0][c];
}
