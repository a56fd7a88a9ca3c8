// expect: refuted bounds
// args: --block 64 --grid 1
// note: an enum made from an integer inside the kernel can hold any value of its underlying type
enum class Mode : unsigned char { Lo = 1, Mid = 2, Hi = 3 };
__global__ void pick(int *out, int raw) {
  __requires(__len(out) >= 64);
  const int table[4] = {0, 10, 20, 30};
  Mode m = static_cast<Mode>(raw);
  out[threadIdx.x] = table[static_cast<int>(m)];
}
