// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: every thread writes through a pointer loaded from memory: all may write the same
// cell (a race), which ksynth cannot rule out without knowing the pointer, so never proven
__global__ void k(float **rows) {
  __requires(__len(rows) >= 1);
  float *r = rows[0];
  r[0] = 1.0f;
}
