// expect: proven
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: t / d is C's division (toward zero) on both paths; under `t >= 0` (a conjunct of the
// path) it is read as Euclidean division, elsewhere not: for negative t, q * d >= t.
__global__ void guardedDiv(int *Y, int d) {
  __requires(__len(Y) >= 64 && d >= 1 && d <= 8);
  int t = (int)threadIdx.x - 5;
  int q;
  if (t >= 0 && t % d == 0)
    q = t / d;
  else
    q = t / d;
  assert(q * d >= t || t >= 0);
  Y[threadIdx.x] = q;
}
