// expect: refuted race
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: threads 2k and 2k+1 both write ps[k].id (i / 2); their x fields are separate
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
    ps[i / 2].id = i;
  }
}
