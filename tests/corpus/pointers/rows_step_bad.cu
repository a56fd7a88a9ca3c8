// expect: refuted bounds
// args: --block 32 --grid 8
// note: in + r + 1 is the row after r: for the last block it is past the end of in (one scalar
// note: per step would stay inside and hide it)
#define N 32
__global__ void add_rows(float (*in)[N], float *out, int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == rows * N);
  __requires(rows == 8);
  int r = blockIdx.x, c = threadIdx.x;
  float (*row)[N] = in + r + 1;
  out[r * N + c] = (*row)[c];
}
