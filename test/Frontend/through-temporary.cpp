// A product whose sum the nest uses in ways no GEMM form covers goes
// through a temporary (Temporary.cpp): the launcher computes the product
// into T, then the nest runs as written with its K loop reading T. Near
// misses keep the remark of the whole nest: a K loop under a branch, a
// break in the loops around it, a store into A, a store whose span the
// guard cannot check, a K bound the nest changes, a call through a pointer.
// The forms: a bias scaled with the sum, ncnn's gemm_transB, rows pushed
// into a local vector of vectors, a scale read through a moved pointer.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <cstddef>
#include <vector>

// The bias is scaled with the sum, which no epilogue does.
void scaledBias(float *out, const float *x, const float *w, const float *bias,
                float scale, int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 'sum' holds the bias 'bias[j]', which the store scales by 'scale' with the sum: the epilogue adds the bias after alpha, and scales no bias; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = bias[j];
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * scale;
    }
}
// The temporary lives in a block around the guard; the store's span is
// checked against A's and B's; the copy of the nest reads T in place of its
// K loop, on the K loop's lines.
// OUT: #include <stdlib.h>
// OUT: { float *gemm_opt_temporary = (float *)malloc(sizeof(float) * (size_t)M * (size_t)N); if (!((gemm_opt_temporary) && ((unsigned long long)(out + {{.*}} <= (unsigned long long)(x + {{.*}} && gemm_opt_nest_0(x, M, K, K, 1, w, K, N, 1, K, gemm_opt_temporary, M, N, N, 1, 1, 0))) {
// OUT: } else {
// OUT-NEXT: #line 20 "{{.*}}through-temporary.cpp"
// OUT-NEXT: for (int i = 0; i < M; i++)
// OUT-NEXT: for (int j = 0; j < N; j++) {
// OUT-NEXT: float sum = bias[j];
// OUT-NEXT: sum += gemm_opt_temporary[i * N + j];
// OUT-NEXT: ;
// OUT-NEXT: out[i * N + j] = sum * scale;
// OUT-NEXT: }
// OUT-NEXT: }
// OUT-NEXT: #line 26 "{{.*}}through-temporary.cpp"
// OUT-NEXT: free(gemm_opt_temporary); }

// ncnn's gemm_transB: C broadcast into the sum by flags, alpha applied
// after, and a store that a flag transposes.
void gemmTransB(const float *a, const float *b, const float *c, float *top,
                int M, int N, int K, int broadcast, float alpha, float beta,
                int transposed, int ldc) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+14]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: versioning it on 'c', 'broadcast == 0', 'broadcast == 1', 'broadcast == 3' and 'broadcast == 4' would make 32 versions, more than the 16 that one nest may have, and no version on fewer of them is a GEMM; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      float sum = 0.f;
      if (c) {
        if (broadcast == 0)
          sum = c[0] * beta;
        if (broadcast == 1)
          sum = c[i] * beta;
        if (broadcast == 3)
          sum = c[i * N + j] * beta;
        if (broadcast == 4)
          sum = c[j] * beta;
      }
      for (int k = 0; k < K; k++)
        sum += a[i * K + k] * b[j * K + k];
      sum *= alpha;
      if (transposed)
        top[j * ldc + i] = sum;
      else
        top[i * ldc + j] = sum;
    }
  }
}
// Both stores are checked against both inputs.
// OUT: (gemm_opt_temporary) && ((unsigned long long)(top + {{.*}}(a + {{.*}}(top + {{.*}}(b + {{.*}}(top + {{.*}}(a + {{.*}}(top + {{.*}}(b + {{.*}}gemm_opt_nest_1(

// Rows pushed into a local vector of vectors: no store reaches A or B.
std::vector<std::vector<double>> multiply(
    const std::vector<std::vector<double>> &A,
    const std::vector<std::vector<double>> &B) {
  std::vector<std::vector<double>> C;
  std::size_t n = B[0].size();
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = A.size() x n x B.size(); A row vectors, B row vectors, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of A.size() x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+5]] reads it), since as a whole the nest is no GEMM: declaration of 'row' ('std::vector<double>'), which is not a scalar, inside the nest; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (std::size_t i = 0; i < A.size(); i++) {
    std::vector<double> row;
    for (std::size_t j = 0; j < n; j++) {
      double s = 0;
      for (std::size_t k = 0; k < B.size(); k++)
        s += A[i][k] * B[k][j];
      row.push_back(s);
    }
    C.push_back(row);
  }
  return C;
}
// OUT: { double *gemm_opt_temporary = (double *)malloc(sizeof(double) * (size_t)A.size() * (size_t)n); if (!((gemm_opt_temporary) && gemm_opt_nest_2(
// OUT: s += gemm_opt_temporary[i * n + j];

// A per-column scale read through a pointer that a flag moves: the
// pointer is a variable the nest writes, which A and B are not read through.
void perColumn(float *out, const float *x, const float *w,
               const float *scales, int perChannel, int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+5]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: pointer 'sp' is moved conditionally, so its offset is not a function of the loop indices; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int i = 0; i < M; i++) {
    const float *sp = scales;
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * *sp;
      if (perChannel)
        sp++;
    }
  }
}

// A K loop that a branch skips: a GEMM over the whole box would run it
// everywhere.
void underBranch(float *out, const float *x, const float *w, const int *mask,
                 int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      if (mask[j])
        for (int k = 0; k < K; k++)
          sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * 0.5f;
    }
}

// A break that ends the loop over j early.
void breaks(float *out, const float *x, const float *w, int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      if (sum > 100)
        break;
      out[i * N + j] = sum * 0.5f;
    }
}

// A store into A, which later iterations read.
void intoA(float *x, const float *w, int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: loop 'j' is not a dimension of a matrix product: its index map is not a contraction [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      x[i * K] = sum * 0.5f;
    }
}

// A store through an index read from memory: its span, which may meet B,
// has no run-time check.
void scattered(float *out, const float *x, const float *w, const int *idx,
               int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index 'idx[i * N + j]' is not an affine function of the loop indices [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[idx[i * N + j]] = sum * 0.5f;
    }
}

// The K loop's bound, changed in the nest.
void boundChanged(float *out, const float *x, const float *w, int M, int N,
                  int K) {
  int len = K;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'len' of 'k' is written inside the nest [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < len; k++)
        sum += x[i * K + k] * w[j * K + k];
      out[i * N + j] = sum * 0.5f;
      len = K - (j % 2);
    }
}

// A call through a pointer may write A or B.
typedef void (*Emit)(int, int, float);
void emitted(Emit emit, const float *x, const float *w, int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'emit' is called through a function pointer, whose target is not known at compile time [-Rpass-missed=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < K; k++)
        sum += x[i * K + k] * w[j * K + k];
      emit(i, j, sum * 0.5f);
    }
}
