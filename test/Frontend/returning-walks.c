// Walks that return to where they started, by their meaning: the moves of
// a pointer over an iteration add up as a polynomial in the loop counters
// and invariants (byte widths over the element size, trip counts from the
// loop bounds), so a move forward and one back cancel; an integer stepped
// like a pointer is walked like one; a counter stepped before the end of
// its body is read as stepped after it; a pointer set at the end of each
// iteration for the next starts each from what the one before left.
// Near misses stay as written.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

typedef unsigned long uptr;

// A's row pointer moves 1 per K step and back by the row's bytes per
// column: its net move per column is 0, however it is spelled.
void rowBack(unsigned n, const double *A, const double *B, double *C) {
  uptr rowBytes = n << 3;
  const double *a = A;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call {{.*}} [-Rpass=gemm]
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < n; j++) {
      double s = 0;
      for (unsigned p = 0; p < n; p++)
        s += *a++ * B[p * n + j];
      a = (const double *)((uptr)a - rowBytes);
      C[i * n + j] = s;
    }
    a += n;
  }
}

// The walk back falls one element short: A's pointer moves 1 per
// two columns.
void notBack(unsigned n, const double *A, const double *B, double *C) {
  uptr rowBytes = (n - 1) << 3;
  const double *a = A;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'a' moves by '1' per iteration of the loop over 'j', which steps by 2: its offset is not an affine function of 'j' [-Rpass-missed=gemm]
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < n; j += 2) {
      double s = 0;
      for (unsigned p = 0; p < n; p++)
        s += *a++ * B[p * n + j];
      a = (const double *)((uptr)a - rowBytes);
      C[i * n + j] = s;
    }
    a += n;
  }
}

// CMSIS style: C's row from an integer stepped like a pointer (`px = pC +
// i`), the column counter stepped before the end of the body, and B's
// column re-based from it for the next column.
void rebased(const float *pA, const float *pB, float *pC, unsigned M, unsigned N, unsigned K) {
  unsigned i = 0, row = M, col, c;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A strided, B strided, C strided; accumulates in 'sum', alpha = 1, beta = 0; the launcher runs only where M > 0 and N > 0 {{.*}} [-Rpass=gemm]
  do {
    float *px = pC + i;
    const float *pIn2 = pB;
    col = N;
    do {
      const float *pIn1 = pA;
      float sum = 0.f;
      c = K;
      while (c > 0U) {
        sum += *pIn1++ * *pIn2;
        pIn2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      pIn2 = pB + (N - col);
    } while (col > 0U);
    i = i + N;
    pA = pA + K;
    row--;
  } while (row > 0U);
}

// The counter stepped twice per column.
void twice(const float *pA, const float *pB, float *pC, unsigned M, unsigned N, unsigned K) {
  unsigned i = 0, row = M, col, c;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'pIn2' is set to 'pB + (N - col)', which depends on 'col', which the nest changes: its offset is not a function of the loop indices [-Rpass-missed=gemm]
  do {
    float *px = pC + i;
    const float *pIn2 = pB;
    col = N;
    do {
      const float *pIn1 = pA;
      float sum = 0.f;
      c = K;
      while (c > 0U) {
        sum += *pIn1++ * *pIn2;
        pIn2 += N;
        c--;
      }
      col--;
      *px++ = sum;
      col--;
      pIn2 = pB + (N - col);
    } while (col > 0U);
    i = i + N;
    pA = pA + K;
    row--;
  } while (row > 0U);
}

// B's column re-based from memory.
void varying(const float *pA, const float *pB, float *pC, unsigned M, unsigned N, unsigned K, const unsigned *skip) {
  unsigned i = 0, row = M, col, c;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'pIn2' is read before the statement that sets it in each iteration of the loop over 'col', so it holds what the iteration before left, which is no polynomial in 'col' [-Rpass-missed=gemm]
  do {
    float *px = pC + i;
    const float *pIn2 = pB;
    col = N;
    do {
      const float *pIn1 = pA;
      float sum = 0.f;
      c = K;
      while (c > 0U) {
        sum += *pIn1++ * *pIn2;
        pIn2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      pIn2 = pB + skip[col];
    } while (col > 0U);
    i = i + N;
    pA = pA + K;
    row--;
  } while (row > 0U);
}

// Re-based one past where the first column starts.
void offByOne(const float *pA, const float *pB, float *pC, unsigned M, unsigned N, unsigned K) {
  unsigned i = 0, row = M, col, c;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'pIn2' is read before the statement that sets it in each iteration of the loop over 'col', so it holds what the iteration before left: what the iteration before leaves would start the first iteration 1 elements from where it is before the loop [-Rpass-missed=gemm]
  do {
    float *px = pC + i;
    const float *pIn2 = pB;
    col = N;
    do {
      const float *pIn1 = pA;
      float sum = 0.f;
      c = K;
      while (c > 0U) {
        sum += *pIn1++ * *pIn2;
        pIn2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      pIn2 = pB + (N - col) + 1;
    } while (col > 0U);
    i = i + N;
    pA = pA + K;
    row--;
  } while (row > 0U);
}
