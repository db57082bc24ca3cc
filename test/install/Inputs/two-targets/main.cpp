// Prints the program's name and the sum of product.cpp's product.
#include <cstdio>

double product();

int main() {
  std::printf("%s: %d x %d: sum = %g\n", NAME, EXTENT, EXTENT, product());
  return 0;
}
