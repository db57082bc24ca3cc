// Bounds must be rectangular and loop-invariant: a bound that depends on an
// outer index (triangular), is written in the nest, or reads memory that the
// nest may write leaves the nest alone.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-bounds.cpp"
// OUT-NOT: gemm_opt_nest

double A[64][64], B[64][64], C[64][64];
int dims[2];
unsigned char small[2];
int size();

void bounds(int n) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'k' depends on 'i' [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < i; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // A lower bound too.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'j' depends on 'i' [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = i; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'k' depends on 'j' [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 63; ++j)
      for (int k = 0; k <= j + 1; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // Through a local declared in the nest.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: non-rectangular bounds: the bound of 'k' depends on 'i' [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i) {
    int last = i + 1;
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < last; ++k)
        C[i][j] += A[i][k] * B[k][j];
  }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'n' of 'i' is written inside the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        n = 32;
      }

  // A character may alias the doubles the nest writes (an int may not, C's
  // aliasing rule: tensor extents in e2e/versioned-branches.cpp).
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'small[0]' of 'i' may change inside the nest (it reads memory or calls a function) [-Rpass-missed=gemm]
  for (int i = 0; i < small[0]; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'size()' of 'k' may change inside the nest (it reads memory or calls a function) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < size(); ++k)
        C[i][j] += A[i][k] * B[k][j];
}
