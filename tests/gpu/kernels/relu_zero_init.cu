// ksynth:launch grid=((N + 255) / 256) block=(256)
// A stale-output bug: negative inputs leave Y[i] unwritten, trusting the buffer to hold 0
// (a fresh cudaMalloc often does). ksynth verify refutes it (coverage); `ksynth run
// --unverified` must catch it too, because outputs are poisoned with NaN before each launch.
__global__ void relu(const float *X, float *Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && X[i] > 0.0f)
    Y[i] = X[i];
}
