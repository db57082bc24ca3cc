// Near misses of pointer walks: each is left as written, and the remark
// names what keeps the pointer's offset from being an affine function of
// the loop indices, or what the rewrite would leave stale.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-pointer-walks.c"
// OUT-NOT: gemm_opt_nest

typedef unsigned long uptr;

void walks(int M, int N, int K, const float *A, const float *B, float *C,
           const int *skip, float *D) {
  // A bump read from memory.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'a' moves by 'skip[i]', which depends on 'i', which the nest changes: its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    const float *a = A;
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[k] * B[k * N + j];
      C[i * N + j] = s;
    }
    a += skip[i];
  }

  // A bump under a branch.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'c' is moved conditionally, so its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    float *c = C + i * N;
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * B[k * N + j];
      *c = s;
      if (s > 0)
        c++;
    }
  }

  // One element per iteration of a loop that steps by 2.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'a' moves by '1' per iteration of the loop over 'k', which steps by 2: its offset is not an affine function of 'k' [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      const float *a = A + i * K;
      float s = 0;
      for (int k = 0; k < K; k += 2)
        s += *a++ * B[k * N + j];
      C[i * N + j] = s;
    }
  }

  // Bumps in a triangle: the count before row i is no affine function of i.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the walk of pointer 'C' is not counted: the trip count of the loop over 'j' depends on 'i', which the nest changes [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < i; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * B[k * N + j];
      *C++ = s;
    }
  }

  // Moved twice in one expression: C leaves the order unspecified.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'b' is moved and read again in one expression, whose order C leaves unspecified [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      const float *b = B + j;
      float s = 0;
      for (int k = 0; k < K; k += 2)
        s += A[i * K + k] * *b++ + A[i * K + k + 1] * *b++;
      C[i * N + j] = s;
    }

  // Read before the statement that resets it in each iteration.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'D' is read before the statement that sets it in each iteration of the loop over 'i', so it holds what the iteration before left: what the iteration before leaves would start the first iteration 0L - N elements from where it is before the loop [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * B[k * N + j];
      D[j] = s;
    }
    D = C + i * N;
  }

  // Moved through an integer by a byte count that is no whole number of
  // elements.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'a' is moved by bytes: the byte offset '(uptr)a + K * 2' is not provably a whole number of 'float' elements (4 bytes): its term 'K * 2' is a multiple of 2, not provably a multiple of 4 [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    const float *a = A;
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[k] * B[k * N + j];
      C[i * N + j] = s;
    }
    a = (const float *)((uptr)a + K * 2);
  }

  // A walks the output: C and an input are one buffer.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: C and an input are the same buffer 'C': the nest updates it in place (aliasing) [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++) {
    const float *a = C + i * N;
    float *c = C + i * N;
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < K; k++)
        *c += a[k] * B[k * N + j];
      c++;
    }
  }
}

// Read after the nest: the loop leaves it one row past the end.
float readAfter(int M, int N, int K, const float *A, const float *B,
                float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'C' is read after the loop (line [[@LINE+8]]), where it holds the value the loop moved it to; the rewrite would not set it [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * B[k * N + j];
      *C++ = s;
    }
  return C[-1];
}

// Run again by a loop around it: each run starts where the last stopped.
void repeated(int R, int M, int N, int K, const float *A, const float *B,
              float *C) {
  for (int r = 0; r < R; r++) {
    if (A[0] != A[0])
      break;
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: pointer 'C' is moved by the nest, which runs inside the loop at line [[@LINE-3]]: each run starts where the last one stopped, which the rewrite would not set [-Rpass-missed=gemm]
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        float s = 0;
        for (int k = 0; k < K; k++)
          s += A[i * K + k] * B[k * N + j];
        *C++ = s;
      }
  }
}

// Walks inside inlined helpers. The pointer is read after the helper's K
// loop, where it stands past the elements by a trip count that may be
// negative: its value is not proven.
static void dotThenRead(int k, const float *a, const float *b, int ldb,
                        float *c) {
  const float *bp = b;
  float s = 0;
  for (int p = 0; p < k; p++) {
    s += a[p] * *bp;
    bp += ldb;
  }
  *c += s * *bp;
}
void helperReadsAfter(int m, int n, int k, const float *A, const float *B,
                      float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'bp' is read after the loop over 'p' of an inlined call, where it depends on a trip count that is not proven >= 0 (k >= 0) [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      dotThenRead(k, &A[i * k], &B[j], n, &C[i * n + j]);
}

// The helper moves its pointer under a branch, in an arm of its own.
static void skipZeros(int k, const float *a, const float *b, int ldb,
                      float *c) {
  const float *bp = b;
  float s = 0;
  for (int p = 0; p < k; p++) {
    s += a[p] * *bp;
    if (a[p] != 0)
      bp += ldb;
  }
  *c += s;
}
void helperSkips(int m, int n, int k, const float *A, const float *B,
                 float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'bp' is moved conditionally, so its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      skipZeros(k, &A[i * k], &B[j], n, &C[i * n + j]);
}

// A do-while's counter set ahead of it from a value that a statement
// between changes (the loop runs the first M rows, not M / 2), or from
// memory that a statement between may write: the loop has no start.
void startChanged(const float *pa, const float *pb, float *pc, unsigned M,
                  unsigned N, unsigned K, unsigned *rows) {
  unsigned i = 0, row = M, row2 = *rows;
  M = M / 2;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the walk of integer 'i' is not counted: the loop over 'row' has no start: no statement ahead of it sets 'row' where nothing between changes the value [-Rpass-missed=gemm]
  do {
    float *px = pc + i;
    const float *p2 = pb;
    unsigned col = N;
    do {
      const float *p1 = pa;
      float sum = 0.f;
      unsigned c = K;
      while (c > 0U) {
        sum += *p1++ * *p2;
        p2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      p2 = pb + (N - col);
    } while (col > 0U);
    i = i + N;
    pa = pa + K;
    row--;
  } while (row > 0U);
  *rows = *rows / 2;
  i = 0;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the walk of integer 'i' is not counted: the loop over 'row2' has no start: no statement ahead of it sets 'row2' where nothing between changes the value [-Rpass-missed=gemm]
  do {
    float *px = pc + i;
    const float *p2 = pb;
    unsigned col = N;
    do {
      const float *p1 = pa;
      float sum = 0.f;
      unsigned c = K;
      while (c > 0U) {
        sum += *p1++ * *p2;
        p2 += N;
        c--;
      }
      *px++ = sum;
      col--;
      p2 = pb + (N - col);
    } while (col > 0U);
    i = i + N;
    pa = pa + K;
    row2--;
  } while (row2 > 0U);
}
