// Unrolled loops whose copies and remainder do not cover the range once:
// each remark names what breaks it.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT:     #line 1 "{{.*}}reject-unrolled-loops.cpp"
// No nest is a GEMM as a whole: the launches are of products through
// temporaries (Temporary.cpp), each in the block that allocates its own.
// OUT-NOT: if (!gemm_opt_nest

float A[100][100], B[100][100], C[100][100];

void remainders(int K) {
  // The remainder starts one past where the unrolled loop stops.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 100 x 100 x K; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; 'k' is unrolled by 4; the launcher runs only where K % 4 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); the product goes through a temporary of 100 x 100 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the remainder loop over 'k2' starts at 'K - K % 4 + 1', not where the unrolled loop over 'k' stops; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      for (int k = 0; k + 4 <= K; k += 4)
        s += A[i][k] * B[k][j] + A[i][k + 1] * B[k + 1][j] +
             A[i][k + 2] * B[k + 2][j] + A[i][k + 3] * B[k + 3][j];
      for (int k2 = K - K % 4 + 1; k2 < K; k2++)
        s += A[i][k2] * B[k2][j];
      C[i][j] = s;
    }

  // The unrolled loop's test lets its copies pass K.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the unrolled loop over 'k' covers 'k..k + 3' while it tests 'k' against 'K + 1', so it runs past 'K', where the remainder loop stops [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      int k;
      for (k = 0; k < K + 1; k += 4)
        s += A[i][k] * B[k][j] + A[i][k + 1] * B[k + 1][j] +
             A[i][k + 2] * B[k + 2][j] + A[i][k + 3] * B[k + 3][j];
      for (; k < K; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }

  // The remainder runs to another bound.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the unrolled loop over 'k' covers 'k..k + 3' while it tests 'k + 4' against 'K', which is not a constant distance from '2 * K', where the remainder loop stops [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      int k;
      for (k = 0; k + 4 <= K; k += 4)
        s += A[i][k] * B[k][j] + A[i][k + 1] * B[k + 1][j] +
             A[i][k + 2] * B[k + 2][j] + A[i][k + 3] * B[k + 3][j];
      for (; k < 2 * K; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

void copies(int K) {
  // One copy repeated, one missing.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the body of the loop over 'k' (step 4) is not 4 copies of the body of the remainder loop after it, one for each of 'k..k + 3' [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      int k;
      for (k = 0; k + 4 <= K; k += 4)
        s += A[i][k] * B[k][j] + A[i][k + 1] * B[k + 1][j] +
             A[i][k + 1] * B[k + 1][j] + A[i][k + 3] * B[k + 3][j];
      for (; k < K; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }

  // Copies of another product than the remainder's.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the body of the loop over 'k' (step 2) is not 2 copies of the body of the remainder loop after it, one for each of 'k..k + 1' [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      int k;
      for (k = 0; k + 2 <= K; k += 2)
        s += A[i][k] * B[j][k] + A[i][k + 1] * B[j][k + 1];
      for (; k < K; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

void missing() {
  // No remainder, and 4 does not divide 98: the last two are never summed.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the unrolled loop over 'k' covers 'k..k + 3' but its step 4 does not divide '98', and no remainder loop follows it [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      for (int k = 0; k + 4 <= 98; k += 4)
        s += A[i][k] * B[k][j] + A[i][k + 1] * B[k + 1][j] +
             A[i][k + 2] * B[k + 2][j] + A[i][k + 3] * B[k + 3][j];
      C[i][j] = s;
    }

  // A step of 2 over a body that is not 2 copies (the same product twice)
  // is a strided loop, whose body is then no one multiply-accumulate.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no multiply-accumulate of two array elements (C += A * B) in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      float s = 0;
      for (int k = 0; k < 100; k += 2)
        s += A[i][k] * B[k][j] + A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
