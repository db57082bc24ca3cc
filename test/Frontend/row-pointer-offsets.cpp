// llm.c's matmul_forward declares row pointers in the t loop, offset by a
// polynomial in b and t with loop-invariant coefficients. However the offset
// is spelled (products grouped any way, terms in any order, or one pointer
// declared from another in each loop), b's stride T*OC is T times t's stride
// OC, so b and t merge into one M dimension of extent B*T: every spelling is
// the same GEMM with the same strides.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

// OUT: #line 1 "{{.*}}row-pointer-offsets.cpp"

// The o and i loops after matmul_forward's: out_bt[o] = inp_bt . w[o].
#define PROJECT(out_bt, inp_bt, w)                                             \
  for (int o = 0; o < OC; o++) {                                               \
    float val = 0.0f;                                                          \
    const float *wrow = w + o * C;                                             \
    for (int i = 0; i < C; i++)                                                \
      val += inp_bt[i] * wrow[i];                                              \
    out_bt[o] = val;                                                           \
  }

// out[B*T][OC] = inp[B*T][C] * weight[OC][C]^T, as llm.c writes it.
void matmul_forward(float *out, const float *inp, const float *weight, int B,
                    int T, int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * OC + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        const float *wrow = weight + o * C;
        for (int i = 0; i < C; i++) {
          val += inp_bt[i] * wrow[i];
        }
        out_bt[o] = val;
      }
    }
  }
}

// The invariant factors grouped: b's coefficient is the product T*OC.
void grouped(float *out, const float *inp, const float *weight, int B, int T,
             int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * (T * OC) + t * OC;
      const float *inp_bt = inp + b * (T * C) + t * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// The stride factored out, the terms and factors commuted.
void factored(float *out, const float *inp, const float *weight, int B, int T,
              int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + OC * (t + T * b);
      const float *inp_bt = inp + C * (t + T * b);
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// The token index composed first, as the README's merge example writes it.
void composed(float *out, const float *inp, const float *weight, int B, int T,
              int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + (b * T + t) * OC;
      const float *inp_bt = inp + (b * T + t) * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// The inner loop's term first.
void commuted(float *out, const float *inp, const float *weight, int B, int T,
              int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + t * OC + b * T * OC;
      const float *inp_bt = inp + t * C + b * T * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// A pointer per loop, the inner one declared from the outer one, with
// `&p[off]` and `p + off` mixed.
void perLoop(float *out, const float *inp, const float *weight, int B, int T,
             int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    float *out_b = out + b * T * OC;
    const float *inp_b = &inp[b * T * C];
    for (int t = 0; t < T; t++) {
      float *out_bt = out_b + t * OC;
      const float *inp_bt = &inp_b[t * C];
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// The offset in the access itself, and a row of a 3-D array through `&`.
void inAccess(float *out, const float inp[4][6][8], const float *weight,
              int B, int T, int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = 24 x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(&inp[0][0][0], 24, C, 8, 1, weight, C, OC, 1, C, out, 24, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < 4; b++) {
    for (int t = 0; t < 6; t++) {
      const float *inp_bt = &inp[b][t][0];
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        for (int i = 0; i < C; i++)
          val += inp_bt[i] * (weight + o * C)[i];
        (out + b * 6 * OC + t * OC)[o] = val;
      }
    }
  }
}

// A padded batch stride (ldo, not T*OC) does not compose: b stays a batch.
void padded(float *out, const float *inp, const float *weight, int B, int T,
            int C, int OC, int ldo) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = T x OC x C, batch B; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_7(inp, B, T, C, C * T, C, 1, weight, B, C, OC, 0, 1, C, out, B, T, OC, ldo, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * ldo + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// A bound read from a local of the b loop is its initialiser, T.
void localBound(float *out, const float *inp, const float *weight, int B,
                int T, int C, int OC) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_8(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    const int steps = T;
    for (int t = 0; t < steps; t++) {
      float *out_bt = out + b * T * OC + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

struct Layer {
  const float *w;
};

// Each reason names what stops the rewrite.
void rejected(float *out, const float *inp, const float *weight,
              const Layer *layers, int B, int T, int C, int OC) {
  // The weights are a different buffer per b.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the buffer 'layers[b].w' of 'wrow[i]' is not one buffer for the whole nest: it depends on the loop index 'b' [-Rpass-missed=gemm]
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * OC + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      PROJECT(out_bt, inp_bt, layers[b].w)
    }
  }

  // The input row bumped along, never reset: its offset counts the bumps of
  // every (b, t) before, (b*T + t)*C (PointerWalk.cpp).
  const float *row = inp;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_9(row, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * OC + t * OC;
      PROJECT(out_bt, row, weight)
      row += C;
    }
  }

  // C89 style: the row pointer declared first, set later.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_10 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_10(inp, B * T, C, C, 1, weight, C, OC, 1, C, out, B * T, OC, OC, 1, 1, 0)) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt;
      const float *inp_bt = inp + b * T * C + t * C;
      out_bt = out + b * T * OC + t * OC;
      PROJECT(out_bt, inp_bt, weight)
    }
  }

  // A token index that a short cannot hold for every b and t.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: index uses 'bt', declared inside the nest as 'short', which does not hold every value of its initialiser 'b * T + t' ('int') [-Rpass-missed=gemm]
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      short bt = b * T + t;
      float *out_bt = out + bt * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }

  // A quadratic offset in the batch loop: no batch, but the product of
  // each b, launched once per b.
  // REMARK: :[[@LINE+2]]:5: remark: GEMM recognised: f32, M x N x K = T x OC x C; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_11 [-Rpass=gemm]
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * b + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      PROJECT(out_bt, inp_bt, weight)
    }
  }
}

// Every spelling: A (B*T) x C, B C x OC read transposed, C (B*T) x OC.
// MLIR-COUNT-6: func.func @gemm_opt_nest_{{[0-5]}}(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_6(%arg0: memref<24x?xf32, strided<[8, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<24x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_7(%arg0: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg1: memref<?x?x?xf32, strided<[?, 1, ?], offset: ?>>, %arg2: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR: func.func @gemm_opt_nest_8(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR-COUNT-3: func.func @gemm_opt_nest_{{9|10|11}}(%arg0: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf32, strided<[1, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>, %arg3: f32, %arg4: f32)
// MLIR-NOT: func.func
