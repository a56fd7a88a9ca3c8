// expect: proven
// args: --block 128 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: each thread draws from its own generator state
#include <curand_kernel.h>

__global__ void draw(curandState *states, float *out) {
  __requires(__len(states) >= 128 && __len(out) >= 128);
  out[threadIdx.x] = curand_uniform(&states[threadIdx.x]);
}
