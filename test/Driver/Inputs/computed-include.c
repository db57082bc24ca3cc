/* A header named by a macro, as tutorials that switch kernels do: GCC
   includes "kernel_naive.h", clang alone would look for "kernel_naive .h". */
#define STR(x) #x
#define STRINGIFY(x) STR(x)
#define EXPAND(x) x
#define CONCAT(n1, n2) STRINGIFY(EXPAND(n1) EXPAND(n2))
#define EXT .h
#define KERNEL kernel_naive
#include CONCAT(KERNEL, EXT)

int main(void) {
  float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {0};
  kernel_naive(a, b, c, 2, 2, 2);
  return c[3] == 4 ? 0 : 1;
}
