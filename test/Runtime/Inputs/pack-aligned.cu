// Runs the kernels' alignment check for 4-element packs of floats on
// operands whose strides the fast path must not take, and the check of which
// problems a kernel without a scalar twin runs, the row padding that a pack
// past a row's end reads included.
#include "gemm_kernels/launch.cuh"

#include <cstdio>

namespace {
struct RowMajor {
  using T = float;
  struct A {
    static constexpr int X = 64, PACK = 4, PACKS = 128, LOADS = 1;
    static constexpr bool X_UNIT = false, K_UNIT = true, ALONG_K = true,
                          WHOLE_STORE = false, REGULAR = true,
                          SWIZZLED = false, K_INNER = false;
  };
  struct B {
    static constexpr int X = 64, PACK = 4, PACKS = 128, LOADS = 1;
    static constexpr bool X_UNIT = true, K_UNIT = false, ALONG_K = false,
                          WHOLE_STORE = true, REGULAR = true,
                          SWIZZLED = false, K_INNER = false;
  };
  static constexpr bool C_ROW_UNIT = false, C_COL_UNIT = true;
  static constexpr int C_PACK = 4;
  static constexpr bool TRANSPOSED = false, SCALAR_TWIN = false;
};
} // namespace

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

  // A kernel compiled for unit strides along K of A, along N of B and C,
  // with 4-element packs and no scalar twin, runs a problem only where those
  // strides are 1 (or their extent is) and its packs fit.
  const auto problem = [&](int64_t m, int64_t n, Operand b) {
    return gemm_rt::Problem{"x", gemm_rt::DType::F32, 1, m, n, 8,
                            {buffer, 0, 8, 1}, b, {buffer, 0, 8, 1}, 1, 0};
  };
  const struct {
    const char *what;
    gemm_rt::Problem p;
  } problems[] = {
      {"B row-major, ld 8", problem(4, 8, {buffer, 0, 8, 1})},
      {"B column-major (a dense copy of a tie)", problem(4, 8, {buffer, 0, 1, 8})},
      {"B column-major, one column", problem(4, 1, {buffer, 0, 1, 8})},
      {"B row-major, ld 6", problem(4, 8, {buffer, 0, 6, 1})},
      {"B row-major, 6 columns, ld 8", problem(4, 6, {buffer, 0, 8, 1})},
      {"B row-major, 6 columns, ld 4 (rows overlap)",
       problem(4, 6, {buffer, 0, 4, 1})},
      {"B row-major, 6 columns, ld -8 (rows reversed)",
       problem(4, 6, {buffer + 56, 0, -8, 1})},
      {"B row-major, 8 columns, ld -8 (rows reversed)",
       problem(4, 8, {buffer + 56, 0, -8, 1})},
  };
  for (const auto &c : problems)
    std::printf("%s: %s\n", c.what,
                gemm_kernels::runs<RowMajor>(c.p) ? "runs" : "refused");
  return 0;
}
