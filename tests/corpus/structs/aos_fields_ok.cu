// expect: proven
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: each thread writes both fields of its own element of an array of structs
struct Particle {
  float x, y;
  int id;
};

__global__ void init(Particle *ps, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(ps) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    ps[i].x = 0.0f;
    ps[i].y = 1.0f;
    ps[i].id = i;
  }
}
