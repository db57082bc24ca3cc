// Loops whose iterations are not a counted range: the remark says why.
//
// RUN: gemm-opt %s -o %t.cu -- -std=c++20 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-counted-loops.cpp"
// OUT-NOT: gemm_opt_nest

#include <ranges>

double A[64][64], B[64][64], C[64][64];
void use(int);

void changed(int n) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is also changed in the body ('k += 1') [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      int k = 0;
      while (k < 64) {
        C[i][j] += A[i][k] * B[k][j];
        k += 1;
        k++;
      }
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is also changed in the body ('k = 2 * k') [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      for (int k = 1; k < 64; k++) {
        C[i][j] += A[i][k] * B[k][j];
        k = 2 * k;
      }

  // A range-`for` variable changed in the body is no longer the range's.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is also changed in the body ('k += 2') [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      for (int k : std::views::iota(0, 32)) {
        k += 2;
        C[i][j] += A[i][k] * B[k][j];
      }
}

void unknownCount(double eps, int n) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop with the test 'eps > 1' has no integer induction variable that steps at the end of each iteration, so its trip count is unknown [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      while (eps > 1) {
        C[i][j] += A[i][j] * B[j][i];
        eps = eps / 2;
      }

  // The counter stepped twice, once before the body's end.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is also changed in the body ('k++') [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      int k = 0;
      while (k < 64) {
        k++;
        C[i][j] += A[i][k] * B[k][j];
        k++;
      }
    }

  // No statement just before the loop gives k its start.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'k' starts from the value 'k' holds before it, which no statement just before it in its block sets [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      int k = 0;
      C[i][j] += k;
      while (k < 64) {
        C[i][j] += A[i][k] * B[k][j];
        k++;
      }
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the range-'for' over 'k' does not count integers: its range 'std::views::iota(0) | std::views::take(n)' is no std::views::iota(first, last) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      for (int k : std::views::iota(0) | std::views::take(n))
        C[i][j] += A[i][k] * B[k][j];
}

void directions(int n) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'i' counts down but tests 'i < 64', so it does not stop at its bound [-Rpass-missed=gemm]
  for (int i = 63; i < 64; --i)
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'i' steps by '2' but tests 'i != 63', which a step may jump over [-Rpass-missed=gemm]
  for (int i = 0; i != 63; i += 2)
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'i' counts down in steps of '2'; only loops that count down by 1 are lifted [-Rpass-missed=gemm]
  for (int i = 63; i >= 0; i -= 2)
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'i' counts down to '0' but 'i' is unsigned: it wraps below 0 instead of stopping [-Rpass-missed=gemm]
  for (unsigned i = 63; i >= 0; --i)
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'i' never moves 'i': its step is 0 [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i += 0)
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the induction variable 'k' is 'double', not an integer, so it does not count iterations exactly [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (double k = 0; k < 64; ++k)
        C[i][j] += A[i][(int)k] * B[(int)k][j];
}

// The outermost `while` leaves i at 0 where the launcher runs, and i is
// read after it.
void liveAfter(int n) {
  int i = 0;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'i' is declared outside the nest, assigned in it and used elsewhere; the rewrite would not update it [-Rpass-missed=gemm]
  while (i < 64) {
    for (int j = 0; j < 64; j++)
      for (int k = 0; k < 64; k++)
        C[i][j] += A[i][k] * B[k][j];
    i++;
  }
  use(i);
}

// Unsigned counters stepped by their tests where they would wrap: below 0
// where `--k` starts at 0, and past the largest value that `do ... while
// (k--)` from it runs.
void unsignedSteppedByTests(unsigned K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test '--k' steps the unsigned 'k' below 0 where it starts at 0, so the loop wraps [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      unsigned k = K;
      while (--k)
        C[i][j] += A[i][k] * B[k][j];
    }
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test 'k-- > 0' steps the unsigned 'k' after the body sees its bound, where the largest start would run one more value than it holds [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      unsigned k = K;
      do
        C[i][j] += A[i][k] * B[k][j];
      while (k-- > 0);
    }
}

// A counter stepped by its test that continues from the loop before it.
void continuedByTest(int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop over 'k' steps it in its test 'k-- > 0', but no statement just before the loop sets where it starts [-Rpass-missed=gemm]
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      int k;
      for (k = 0; k < K / 2; k++)
        C[i][j] += A[i][k] * B[k][j];
      while (k-- > 0)
        C[i][j] += A[i][k] * B[k][j];
    }
}

// A range class of the program's own: its values are integers, but what
// its iterators count is not read.
struct irange {
  struct iterator {
    int v;
    int operator*() const { return v; }
    iterator &operator++() { ++v; return *this; }
    bool operator!=(const iterator &o) const { return v != o.v; }
  };
  int first, last;
  explicit irange(int n) : first(0), last(n) {}
  iterator begin() const { return {first}; }
  iterator end() const { return {last}; }
};
void userRange() {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the range-'for' over 'i' takes its values from the iterators of 'irange(64)', which gemm-opt does not read, so it cannot prove that they count from a first to a last integer [-Rpass-missed=gemm]
  for (int i : irange(64))
    for (int j : irange(64))
      for (int k : irange(64))
        C[i][j] += A[i][k] * B[k][j];
}
