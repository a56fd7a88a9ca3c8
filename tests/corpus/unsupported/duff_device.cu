// expect: unknown
// args: --block 64 --grid 1 --checks race,barrier,bounds
// note: a case label inside a nested statement of the switch (Duff's device) is not modelled
__global__ void copy(float *to, const float *from, int count) {
  __requires(__len(to) >= 64 * 16 && __len(from) >= 64 * 16 && count > 0 && count <= 16);
  int base = threadIdx.x * 16, i = 0;
  int n = (count + 3) / 4;
  switch (count % 4) {
  case 0:
    do {
      to[base + i] = from[base + i]; i++;
    case 3:
      to[base + i] = from[base + i]; i++;
    case 2:
      to[base + i] = from[base + i]; i++;
    case 1:
      to[base + i] = from[base + i]; i++;
    } while (--n > 0);
  }
}
