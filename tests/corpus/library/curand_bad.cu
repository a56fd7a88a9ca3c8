// expect: refuted race
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: all threads draw from one state: drawing updates it, so threads 0 and 1 race
#include <curand_kernel.h>

__global__ void draw(curandState *states, float *out) {
  __requires(__len(states) >= 128 && __len(out) >= 128);
  out[threadIdx.x] = curand_uniform(&states[0]);
}
