// expect: proven
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the kernel advances its pointer parameters to the second half before using them
__global__ void k(float *in, float *out) {
  __requires(__len(in) >= 256 && __len(out) >= 256);
  in += 128;
  out = out + 128;
  out[threadIdx.x] = in[threadIdx.x];
}
