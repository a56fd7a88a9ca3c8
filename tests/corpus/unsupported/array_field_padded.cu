// expect: unknown
// args: --block 128 --checks race,barrier,overflow,assert
// note: a 16-byte aligned struct of three floats has a padding float: ps[i].v[4] is, in memory,
// note: ps[i + 1].v[0], which thread 1 writes while thread 0 writes ps[0].v[4] (a race). Three
// note: scalars per struct would put it at ps[i + 1].v[1]: a padded struct's array field is not
// note: modelled
struct __align__(16) Vec3 {
  float v[3];
};

__global__ void touch(Vec3 *ps, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    ps[i].v[0] = 1.0f;
    ps[i].v[4] = 2.0f;
  }
}
