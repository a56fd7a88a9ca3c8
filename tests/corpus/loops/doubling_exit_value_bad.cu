// expect: refuted race
// args: --checks race,barrier,bounds,overflow,assert
// note: after `for (s = 1; s < blockDim.x; s *= 2)` s is 1024 when 512 < blockDim.x <= 1024:
// note: the value after the loop's last possible step, where every thread stores out[0]
__global__ void exit_value(int *out) {
  __requires(blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  __requires(__len(out) >= 1);
  unsigned s = 1;
  for (; s < blockDim.x; s *= 2) {
  }
  if (s == 1024)
    out[0] = threadIdx.x;
}
