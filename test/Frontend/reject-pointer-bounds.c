// Near misses of loops that run a pointer to an end pointer: each is left
// as written, and the remark names what keeps the pointer's steps from
// counting the loop's iterations (PointerBounds.cpp), or what the rewrite
// would leave stale.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-pointer-bounds.c"
// OUT-NOT: gemm_opt_nest

struct Span {
  const float *first, *last;
};

void bounds(int m, int k, int n, const float *x, const float *y, float *out,
            const float *w, const float *xEnd, const struct Span *span,
            int ld) {
  // The end moved inside the loop.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the end 'xxEnd' that the loop runs pointer 'xx' to moves in the loop ('--xxEnd'), so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *xx = x + i * k, *xxEnd = xx + k;
      const float *yy = y + j;
      for (; xx != xxEnd; ++xx, yy += n) {
        s += *xx * *yy;
        if (s > 8)
          --xxEnd;
      }
      out[i * n + j] = s;
    }

  // An end from another base than the pointer's start.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the end 'xxEnd' that the loop runs pointer 'xx' to is 'w + k', which is not proven to be where 'xx' starts ('x + i * k') plus a number of elements, so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *xx = x + i * k, *xxEnd = w + k;
      const float *yy = y + j;
      for (; xx != xxEnd; ++xx, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // An end that is a parameter: nothing ties it to where the pointer starts.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the end 'xEnd' that the loop runs pointer 'xx' to is not proven to be where 'xx' starts ('x') plus a number of elements, so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      for (const float *xx = x; xx != xEnd; ++xx, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // `!=` with a step of 2 over k elements, which 2 need not divide.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'xx' steps by '2' but the loop stops where it equals 'xxEnd', 'k' elements away: '2' is not proven to divide that, so a step may jump over the end [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      for (const float *xx = x + 2 * i * k, *xxEnd = xx + k; xx != xxEnd;
           xx += 2, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // A variable step that need not divide the distance.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'xx' steps by 'ld' but its test compares it with 'xxEnd', 'k' elements away: 'ld' is not proven to divide that, so the number of steps is not known [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x + i, *xxEnd = x + i + k;
      for (; xx < xxEnd; xx += ld, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // A step that the loop changes.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop that runs pointer 'xx' to 'xxEnd' steps it by 'step', which moves in the loop ('++step'), so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      int step = 1;
      const float *yy = y + j;
      const float *xx = x + i * k, *xxEnd = xx + k;
      for (; xx < xxEnd; xx += step, yy += n) {
        s += *xx * *yy;
        ++step;
      }
      out[i * n + j] = s;
    }

  // A variable step that an outer loop changes: the launcher, before the
  // nest, cannot test that it is positive.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop that runs pointer 'xx' to 'xxEnd' steps it by 'i', which reads 'i', no variable of the function that keeps its value through the nest, so the launcher cannot test that the step is positive [-Rpass-missed=gemm]
  for (int i = 1; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x, *xxEnd = x + k * i;
      for (; xx != xxEnd; xx += i, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // A step under a branch.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop that runs pointer 'xx' to 'xxEnd' moves it with '++xx' under a branch or in an inner loop, not once per iteration, so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x + i * k, *xxEnd = xx + k;
      while (xx != xxEnd) {
        s += *xx * *yy;
        yy += n;
        if (s != 0)
          ++xx;
        else
          xx += 1;
      }
      out[i * n + j] = s;
    }

  // An end read through a pointer: no count of elements from the start.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the end 'span->last' that the loop runs pointer 'xx' to is not proven to be where 'xx' starts ('span->first') plus a number of elements, so the loop's trip count is no count of the pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      for (const float *xx = span->first; xx != span->last; ++xx, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }

  // A test that steps the pointer it compares.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the test '++xx <= xxLast' changes what it compares, so the loop's trip count is no count of a pointer's steps [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x + i * k, *xxLast = xx + k - 1;
      do {
        s += *xx * *yy;
        yy += n;
      } while (++xx <= xxLast);
      out[i * n + j] = s;
    }
}

// The pointer read after the loop, where it holds what the loop left.
float readAfter(int m, int k, int n, const float *x, const float *y,
                float *out) {
  const float *xx;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'xx' is read after the loop (line [[@LINE+10]]), where it holds the value the loop moved it to; the rewrite would not set it [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *xxEnd = x + i * k + k;
      const float *yy = y + j;
      for (xx = x + i * k; xx < xxEnd; ++xx, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }
  return xx[-1];
}
