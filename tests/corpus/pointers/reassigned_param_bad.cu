// expect: refuted bounds
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: out is advanced by 129: thread 127 writes out[256], one past the end
__global__ void k(float *in, float *out) {
  __requires(__len(in) >= 256 && __len(out) >= 256);
  in += 128;
  out = out + 129;
  out[threadIdx.x] = in[threadIdx.x];
}
