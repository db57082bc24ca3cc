// Near misses of row pointers loaded into locals and walked, and of ends
// set from `int *` dimensions: what makes a row pointer, a dimension or a
// pointer left behind change is named, and the nest stays as written. A
// store of a floating-point value changes no integer and no pointer (C's
// aliasing rule); a store of an integer, a call or a later read does.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-row-table-walks.c"
// OUT-NOT: gemm_opt_nest

void log_row(int i);

// The nest counts the rows it used: an integer store, which may change
// the row table's pointers.
void countsRows(double **CM, double **AM, double **BM, int m, int n, int k,
                int *used) {
  double *p, *p1, temp;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'p1' is set to 'BM[kk]', which depends on 'BM[kk]', which reads memory that the nest may write (it stores other than floating-point values, or calls a function): its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (int kk = 0; kk < k; kk++)
    for (int i = 0; i < m; i++) {
      p1 = BM[kk];
      temp = AM[i][kk];
      used[i] = 1;
      for (p = CM[i]; p < CM[i] + n; p++)
        *p += temp * (*p1++);
    }
}

// A call in the nest may change the row table.
void callsOut(double **CM, double **AM, double **BM, int m, int n, int k) {
  double *p, *p1, temp;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'p1' is set to 'BM[kk]', which depends on 'BM[kk]', which reads memory that the nest may write (it stores other than floating-point values, or calls a function): its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (int kk = 0; kk < k; kk++)
    for (int i = 0; i < m; i++) {
      p1 = BM[kk];
      temp = AM[i][kk];
      log_row(i);
      for (p = CM[i]; p < CM[i] + n; p++)
        *p += temp * (*p1++);
    }
}

// The dimension the end is set from is halved between the set and the
// loop: an integer store, after which the end is no count of `*r`.
void dimensionChanged(double *A, double *B, double *C, int *r, int *c, int *n) {
  double xx, *bp, *ap, *ap1;
  int i, j;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'ap1' is set to 'A + *r', which depends on '*r', which reads memory that the nest may write (it stores other than floating-point values, or calls a function): its offset is not a function of the loop indices [-Rpass-missed=gemm]
  for (j = 0; j < *c; j++) {
    ap1 = A + *r; bp = B;
    *r = *r / 2;
    for (i = 0; i < *n; i++, C++)
      for (xx = *C, ap = A; ap < ap1; ap++, bp++) *ap += xx * *bp;
    A = ap1;
  }
}

// The row pointer walked by the nest is read on one path after it.
double readOnOnePath(double **CM, double **AM, double **BM, int m, int n,
                     int k, int last) {
  double *p, *p1, temp;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'p1' is read after the loop (line [[@LINE+9]]), where it holds the value the loop moved it to; the rewrite would not set it [-Rpass-missed=gemm]
  for (int kk = 0; kk < k; kk++)
    for (int i = 0; i < m; i++) {
      p1 = BM[kk];
      temp = AM[i][kk];
      for (p = CM[i]; p < CM[i] + n; p++)
        *p += temp * (*p1++);
    }
  if (last)
    return p1[-1];
  p1 = BM[0];
  return *p1;
}
