// ksynth:spec copy_small expect=equivalence
// Found by review: a never-written shared array named like an input is not that input (and holds garbage).
// ksynth:launch grid=(1) block=(256)
// A shared array shadows the parameter A and is never written: C gets uninitialised shared memory.
__global__ void shadow_shared(const float *A, float *C, int N) {
  int i = threadIdx.x;
  {
    __shared__ float A[256];
    if (i < N)
      C[i] = A[i];
  }
}
