// A product into a temporary whose rows a second loop copies back into A's
// rows (PolyBench-ACC's doitgen, SplitOff.cpp): the product goes into the
// temporary, and the copy runs after it in the nest's loops, since each row
// of A is read only by the product of its own row, before its copy. A copy
// over other bounds than the row's is a run-time test. Near misses stay as
// written: a copy into another row, a copy read before the row is finished,
// a temporary of one row (its rows collide), a temporary laid out unlike A.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

void doitgen(int nr, int nq, int np, double A[nr][nq][np],
             double C4[np][np], double sum[nr][nq][np]) {
  int r, q, p, s;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = (nq * nr) x np x np; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'A[r][q][p] = sum[r][q][p]' runs beside the product: it runs as written after the launcher, in the nest's loops, where its memory and the product's do not overlap (elsewhere the loop runs); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) {
        sum[r][q][p] = 0;
        for (s = 0; s < np; s++)
          sum[r][q][p] = sum[r][q][p] + A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = sum[r][q][p];
    }
}
// The product into sum, then the copy alone.
// OUT: gemm_opt_nest_0(&A[0][0][0], nq * nr, np, np, 1, &C4[0][0], np, np, np, 1, &sum[0][0][0], nq * nr, np, np, 1, 1, 0))) {
// OUT: } else {
// OUT-NEXT: #line {{[0-9]+}}
// OUT-NEXT: for (r = 0; r < nr; r++)
// OUT-NEXT: for (q = 0; q < nq; q++) {
// OUT-NEXT: ;
// OUT-NEXT: for (p = 0; p < np; p++)
// OUT-NEXT: A[r][q][p] = sum[r][q][p];

// The copy runs to nr, as PolyBench-ACC writes it: a doitgen where nr <= np.
void bounds(int nr, int nq, int np, float A[nr][nq][np], float C4[np][np],
            float sum[nr][nq][np]) {
  // REMARK: :[[@LINE+1]]:3: remark: {{.*}}'A[r][q][p] = sum[r][q][p]' runs beside the product: it runs as written after the launcher, in the nest's loops, where its memory and the product's do not overlap and (nr) <= (np) (elsewhere the loop runs); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[r][q][p] = 0;
        for (int s = 0; s < np; s++)
          sum[r][q][p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < nr; p++)
        A[r][q][p] = sum[r][q][p];
    }
}
// OUT: ((nr) <= (np)) && gemm_opt_nest_1(

void near_misses(int nr, int nq, int np, double A[nr][nq][np],
                 double C4[np][np], double sum[nr][nq][np], double row[np],
                 double T[nr][np][nq]) {
  // The copy goes into the next row, which a later product reads.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[r][q + 1][p]' is written besides the accumulation into C {{.*}} [-Rpass-missed=gemm]
  for (int r = 0; r < nr; r++)
    for (int q = 0; q + 1 < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[r][q][p] = 0;
        for (int s = 0; s < np; s++)
          sum[r][q][p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q + 1][p] = sum[r][q][p];
    }
  // The copy reads the row before it is finished.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[r][q][p]' is written besides {{.*}} [-Rpass-missed=gemm]
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++)
      for (int p = 0; p < np; p++) {
        A[r][q][p] = sum[r][q][p];
        sum[r][q][p] = 0;
        for (int s = 0; s < np; s++)
          sum[r][q][p] += A[r][q][s] * C4[s][p];
      }
  // One row of temporary, rewritten for each row of A.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'A[r][q][p]' is written besides {{.*}} [-Rpass-missed=gemm]
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        row[p] = 0;
        for (int s = 0; s < np; s++)
          row[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = row[p];
    }
  // The temporary's rows lie apart from A's: A's rows may overlap.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'T[r][p][q]' is written besides the accumulator and its store {{.*}} [-Rpass-missed=gemm]
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        double t = 0;
        for (int s = 0; s < np; s++)
          t += A[r][q][s] * C4[s][p];
        T[r][p][q] = t;
      }
      for (int p = 0; p < np; p++) A[r][q][p] = T[r][p][q];
    }
}
