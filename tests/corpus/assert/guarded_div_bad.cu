// expect: refuted assert
// args: --block 64 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: the twin of guarded_div_ok asserting floor division's property: on the path without
// `t >= 0` the quotient rounds toward zero, so t = -1, d = 2 gives q = 0 and 0 <= -1 fails
// (reading the division there as Euclidean would prove it).
__global__ void guardedDiv(int *Y, int d) {
  __requires(__len(Y) >= 64 && d >= 1 && d <= 8);
  int t = (int)threadIdx.x - 5;
  int q;
  if (t >= 0 && t % d == 0)
    q = t / d;
  else
    q = t / d;
  assert(q * d <= t);
  Y[threadIdx.x] = q;
}
