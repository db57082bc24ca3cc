// On a small problem every candidate fills a small share of the GPU, so the
// rates the model predicts are a small share of the peak, and a rounding of
// the bounds to a fixed share of the peak would make candidates of visibly
// different rates tie (here 80x80x32 at 437 GFLOP/s against 96x96x32 at
// 497, both 0.7% of the peak), leaving the choice to their footprints.
// Candidates rank by their predicted rate, then by their other bounds, and
// by footprint only when all of these are equal: --explain lists them
// fastest first (with the ones only tuning may choose, which here trail the
// first), and the first is the schedule the nest gets.
//
// RUN: gemm-opt %s --explain --candidates=150 > %t.explain
// RUN: FileCheck %s --input-file=%t.explain
// RUN: %python -c "import re, sys; rates = [float(row.split()[15]) for row in open(sys.argv[1]) if re.match(r' +[0-9]+ [0-9]+x', row)]; sys.exit(len(rates) != 150 or rates != sorted(rates, reverse=True))" %t.explain
// RUN: gemm-opt %s --emit=cuda -Rpass-analysis=gemm -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHOSEN

// CHECK:      problem: C 48 x 48 x 8 batches
// CHECK:      rank block
// CHECK-NEXT:    1 96x96x32 6x6 {{.*}} 496.9 {{.*}} block=96,96,32 thread=6,6
// CHECK:           80x80x32 8x5 {{.*}} 436.8
// CHOSEN: small-problem-ranking.cpp:[[@LINE+3]]:3: remark: gemm-select-schedule: hopper-h100 f32: block 96x96x32, thread 6x6 (256 threads), {{.*}}: predicted 497 GFLOP/s
void batched(float C[8][48][48], const float A[8][48][48],
             const float B[8][48][48]) {
  for (int b = 0; b < 8; b++)
    for (int i = 0; i < 48; i++)
      for (int j = 0; j < 48; j++)
        for (int k = 0; k < 48; k++)
          C[b][i][j] += A[b][i][k] * B[b][k][j];
}
