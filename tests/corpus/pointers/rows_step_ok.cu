// expect: proven
// args: --block 32 --grid 8
// note: pointer arithmetic on a pointer to rows steps by a row: in + r is row r, and (*row)[c]
// note: and row[0][c] read inside the buffer
#define N 32
__global__ void add_rows(float (*in)[N], float *out, int rows) {
  __requires(__len(in) == rows * N);
  __requires(__len(out) == rows * N);
  __requires(rows == 8);
  int r = blockIdx.x, c = threadIdx.x;
  float (*row)[N] = in + r;
  out[r * N + c] = (*row)[c] + row[0][c];
}
