// ksynth:spec warp_shift expect=equivalence
// Found by review: a neighbour's store in the reader's own barrier interval, ordered by __syncwarp, must be seen (it overwrites the value staged before __syncthreads).
// ksynth:launch grid=(G) block=(32)
__global__ void warp_syncwarp(const float *A, float *B, int G) {
  __shared__ float s[32];
  int t = threadIdx.x;
  int base = blockIdx.x * 32;
  s[t] = A[base + t];
  __syncthreads();
  s[t] = 0.0f;
  __syncwarp();
  B[base + t] = s[(t + 1) % 32];
}
