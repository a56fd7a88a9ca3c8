// expect: unknown
// args: --block 64 --checks race
// note: regression (stop 45): p is a pointer loaded from memory on odd threads and a + tid on
// note: even ones. Odd threads all write *tab[0], a race; ksynth once kept only the even
// note: threads' value at the join (the loaded pointer counted as "unassigned") and proved it
__global__ void k(float *a, float **tab) {
  __requires(gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  float *p = tab[0];
  if (threadIdx.x % 2 == 0)
    p = a + threadIdx.x;
  p[0] = 1.0f;
}
