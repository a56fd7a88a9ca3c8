// expect: unknown
// args: --block 32 --grid 1 --checks race
// note: regression (review follow-up): the Base* is indexed in the text before the conversion that
// makes it point into the Item array; in iteration 1, b[1].key is items[0].value (thread 0 writes it too)
struct Base { int key; };
struct Item : Base { int value; };
__global__ void tag(Item *items) {
  __requires(__len(items) >= 64);
  unsigned t = threadIdx.x;
  Base *b = items + 1;
  for (int r = 0; r < 2; ++r) {
    if (r == 1) b[t].key = 1;
    b = items;
  }
  items[t].value = 2;
}
