// expect: unknown
// args: --block 64 --checks race
// note: on odd threads p is moved along a in a loop (an unknown offset to
// note: ksynth), on even ones it is a + tid; at m = 2, thread 1 writes a[2] as thread 2 does.
// note: The join must not keep only the even threads' a + tid
__global__ void k(float *a, int m) {
  __requires(gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(m >= 0 && m < 64);
  float *p = a;
  if (threadIdx.x % 2 == 0)
    p = a + threadIdx.x;
  else
    for (int j = 0; j < m; ++j)
      p = p + 1;
  p[0] = 1.0f;
}
