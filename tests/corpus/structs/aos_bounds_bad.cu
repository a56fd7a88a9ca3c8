// expect: refuted bounds
// args: --block 128 --checks race,barrier,bounds,overflow,assert
// note: guard i <= n lets thread n write ps[n].y, one past the end
struct Particle {
  float x, y;
};

__global__ void init(Particle *ps, int n) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  __requires(n >= 0 && n < 1000000);
  __requires(__len(ps) >= n);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    ps[i].y = 1.0f;
}
