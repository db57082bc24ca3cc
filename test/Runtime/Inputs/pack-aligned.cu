// Runs the kernels' alignment check for 4-element packs of floats on
// operands whose strides the fast path must not take.
#include "gemm_kernels/kernel.cuh"

#include <cstdio>

int main() {
  using gemm_rt::Operand;
  alignas(16) static float buffer[64];
  struct Case {
    const char *what;
    Operand x;
  } cases[] = {
      {"row-major, ld 8", {buffer, 0, 8, 1}},
      {"rows overlap, ld 1 (Toeplitz)", {buffer, 0, 1, 1}},
      {"rows overlap, ld 2", {buffer, 0, 2, 1}},
      {"ld 0 (every row the same)", {buffer, 0, 0, 1}},
      {"odd batch stride", {buffer, 37, 8, 1}},
      {"batch stride 0", {buffer, 0, 8, 1}},
      {"misaligned base", {buffer + 1, 0, 8, 1}},
      {"column unit stride only, ld 8", {buffer, 0, 1, 8}},
  };
  for (const Case &c : cases)
    std::printf("%s: %s\n", c.what,
                gemm_kernels::packAligned<float>(c.x, 4) ? "packed" : "scalar");
  return 0;
}
