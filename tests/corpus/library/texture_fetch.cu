// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: a texture fetch is some value; an index taken from it may be anything
texture<int, 1, cudaReadModeElementType> idx;

__global__ void k(float *out) {
  __requires(__len(out) >= 64);
  out[tex1Dfetch(idx, threadIdx.x)] = 1.0f;
}
