// OpenMP constructs other than loop directives on the nest's own loops,
// parsed with and without -fopenmp: clang drops `#pragma omp` without it,
// but gemm-opt reads the directives from the text, so both parses give the
// same remarks and the same output. A launcher inside a region would run on
// every thread that reaches it (each adding the whole product into C), so a
// nest with any directive around it is left alone, and so is one with a
// directive on or in it that does more than divide a loop's iterations;
// but for a region that only shares out loops, each one `parallel for`, an
// orphaned `for` on the nest's loop, launched outside parallel regions, and
// a nest in the body of a worksharing loop that reads the loop's index,
// launched once per iteration, and a nest in a block that one thread runs
// once (task, single, master).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s -o %t.omp.cu -- -fopenmp 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.omp.cu | FileCheck %s --check-prefix=OUT

// A region that only shares out the nest's loop: the region ends before
// the guard, the loop as written runs in a region of its own, and the
// region opens again after it.
void region(int n, const double *A, const double *B, double *C) {
#pragma omp parallel
  {
  // OUT:      {{^}}int gemm_opt_in_parallel(void);
  // OUT:      {{^}}void region(
  // OUT-NEXT: {{^}}#pragma omp parallel
  // OUT-NEXT: {{^}}  {
  // OUT-NEXT: {{^}}}
  // OUT-NEXT: {{^}}if (!gemm_opt_nest_0({{.*}})) {
  // OUT-NEXT: {{^}}#line [[@LINE+8]] "{{.*}}openmp-region.cpp"
  // OUT-NEXT: {{^}}#pragma omp parallel
  // OUT-NEXT: {{^}}{
  // OUT-NEXT: {{^}}#line [[@LINE+5]] "{{.*}}openmp-region.cpp"
  // OUT-NEXT: {{^}}#pragma omp for
  // OUT:      {{^}}} }
  // OUT-NEXT: {{^}}#pragma omp parallel
  // OUT-NEXT: {{^}}{
#pragma omp for
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

void stackedRegion(int n, const double *A, const double *B, double *C) {
#pragma omp parallel
#pragma omp for
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region (line [[@LINE-2]])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// A region whose pragma is apart from its block by a comment and a blank
// line, and a `single` inside it: one thread runs the nest.
void singleInRegion(int n, const float *A, const float *B, float *C) {
#pragma omp parallel num_threads(4)
  // every thread enters

  {
#pragma omp single
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// `parallel for` on an outer loop that is not part of the product (a repeat
// loop, which is otherwise peeled), whose index the nest does not read: each
// iteration would launch the same product (the iterations race on C).
void parallelRepeat(int reps, int n, const float *A, const float *B, float *C) {
#pragma omp parallel for
  for (int r = 0; r < reps; ++r)
    // CHECK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is inside an OpenMP 'parallel for' region (line [[@LINE-2]])
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// Orphaned worksharing: the function may run inside a region its caller
// opened, whose threads share the loop. The launcher runs only where no
// region is active; in one, every thread takes the original loop. On an
// inner loop, the `for` shares that loop only: left as written.
// OUT:      {{^}}if (!(!gemm_opt_in_parallel() && gemm_opt_nest_2({{.*}}))) {
// OUT-NEXT: {{^}}#line [[@LINE+4]] "{{.*}}openmp-region.cpp"
// OUT-NEXT: {{^}}#pragma omp for schedule(dynamic)
void orphaned(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; its OpenMP 'for' shares the loop with a caller's team where one is active: the launcher runs only outside parallel regions; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
#pragma omp for schedule(dynamic)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void orphanedInner(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: its OpenMP 'for' directive (line [[@LINE+2]]) shares a loop
  for (int i = 0; i < n; ++i)
#pragma omp for nowait
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// A region written only for OpenMP builds.
void conditionalRegion(int n, const double *A, const double *B, double *C) {
#ifdef _OPENMP
#pragma omp parallel
#endif
  {
    // CHECK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region (line [[@LINE-3]])
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

// `parallel` without `for` on the nest's own loop: every thread runs all of it.
void parallelOnLoop(int n, const double *A, const double *B, double *C) {
  // CHECK: :[[@LINE+2]]:3: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region (line [[@LINE+1]])
#pragma omp parallel
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void atomicUpdate(int n, const double *A, const double *B, double *C) {
  // CHECK: :[[@LINE+2]]:3: remark: loop nest not rewritten: it holds an OpenMP 'atomic' directive (line [[@LINE+5]]); of OpenMP, only loop directives that start their own threads or lanes (parallel for, simd, taskloop) leave a nest one product [-Rpass-missed=gemm]
  #pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        #pragma omp atomic
        C[i * n + j] += A[i * n + k] * B[k * n + j];
      }
}

// A region before the nest, not around it: the nest is rewritten. Its own
// `parallel for`, apart from the loop by a comment, under `#ifdef _OPENMP`
// and continued on a second line, stays with the original loop inside the
// guard.
void afterRegion(int n, float *scratch, const float *A, const float *B, float *C) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    scratch[i] = 0;
  // CHECK: :[[@LINE+12]]:3: remark: GEMM recognised: {{.*}} rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT:      {{^}}if (!gemm_opt_nest_3({{.*}})) {
  // OUT-NEXT: {{^}}#line [[@LINE+5]] "{{.*}}openmp-region.cpp"
  // OUT-NEXT: {{^}}#ifdef _OPENMP
  // OUT-NEXT: {{^}}#pragma omp parallel for \
  // OUT-NEXT: {{^}}    collapse(2)
  // OUT-NEXT: {{^}}#endif
#ifdef _OPENMP
#pragma omp parallel for \
    collapse(2)
#endif
  // rows of C
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

// OUT-NOT: if (!gemm_opt_nest_

// PolyBench-ACC's 3mm: the indices private to the whole region, two loops
// shared out; each nest leaves them dead (the region's capture of them is
// no use).
void privateRegion(int n, const double *A, const double *B, double *E,
                   double *F) {
  int i, j, k;
#pragma omp parallel private(j, k)
  {
#pragma omp for
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        E[i * n + j] = 0;
        for (k = 0; k < n; ++k)
          E[i * n + j] += A[i * n + k] * B[k * n + j];
      }
#pragma omp for
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) {
        F[i * n + j] = 0;
        for (k = 0; k < n; ++k)
          F[i * n + j] += E[i * n + k] * B[k * n + j];
      }
  }
}
// OUT: {{^}}if (!gemm_opt_nest_4(
// OUT: {{^}}if (!gemm_opt_nest_5(

// A nest in the body of a `parallel for` whose iterations pick its operands
// (a product per attention head, each head's matrices views that count
// their copies, ncnn's style, so that the head loop is no batch of the
// product): each iteration's thread launches its own product, as it would
// have run the nest; also under collapse(2) and on an orphaned `for`. In a
// `simd` loop's body, or where the body reads no index of the loop (the
// same product in every iteration), left alone.
struct View {
  float *data;
  int w;
  int *refs;
  View(float *d, int w) : data(d), w(w), refs(nullptr) {}
  View(const View &o) : data(o.data), w(o.w), refs(o.refs) {
    if (refs)
      ++*refs;
  }
  ~View() {
    if (refs)
      --*refs;
  }
  float *row(int i) const { return data + i * w; }
  View channel(int c, int rows) const { return View(data + c * rows * w, w); }
};

void perHead(int heads, int n, const View &Q, const View &K, const View &S) {
#pragma omp parallel for
  for (int h = 0; h < heads; ++h) {
    const View q = Q.channel(h, n), k = K.channel(h, n);
    View s = S.channel(h, n);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}}; launched once per iteration of the OpenMP 'parallel for' loop (line [[@LINE-4]]), by the thread that runs it; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
    for (int i = 0; i < n; ++i) {
      float *out = s.row(i);
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int l = 0; l < n; ++l)
          sum += q.row(i)[l] * k.row(j)[l];
        out[j] = sum;
      }
    }
  }
}

void perBatchAndHead(int batch, int heads, int n, const View &Q,
                     const View &K, const View &S) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h) {
      const View q = Q.channel(b * heads + h, n), k = K.channel(h, n);
      View s = S.channel(b * heads + h, n);
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}}; launched once per iteration of the OpenMP 'parallel for' loop (line [[@LINE-5]]), by the thread that runs it; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int l = 0; l < n; ++l)
            s.row(i)[j] += q.row(i)[l] * k.row(l)[j];
    }
}

void perHeadOrphaned(int heads, int n, const View &Q, const View &K,
                     const View &S) {
#pragma omp for
  for (int h = 0; h < heads; ++h) {
    const View q = Q.channel(h, n), k = K.channel(h, n);
    View s = S.channel(h, n);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}}; launched once per iteration of the OpenMP 'for' loop (line [[@LINE-4]]), by the thread that runs it; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < n; ++l)
          s.row(i)[j] += q.row(i)[l] * k.row(l)[j];
  }
}

void perHeadSimd(int heads, int n, const View &Q, const View &K,
                 const View &S) {
#pragma omp parallel for simd
  for (int h = 0; h < heads; ++h) {
    const View q = Q.channel(h, n), k = K.channel(h, n);
    View s = S.channel(h, n);
    // CHECK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is inside an OpenMP 'parallel for simd' region (line [[@LINE-4]])
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float *c = &s.row(i)[j];
        for (int l = 0; l < n; ++l)
          *c += q.row(i)[l] * k.row(l)[j];
      }
  }
}

// Blocks that one thread runs once each time a thread meets them: a task,
// a single or master block inside a parallel region. The launch replaces
// that one run of the nest, so the team around it launches nothing more.
// A critical section runs once per thread: still every thread's product.
void task(int n, const float *A, const float *B, float *C) {
#pragma omp task
  {
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: {{.*}} rewritten to call {{.*}} [-Rpass=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}
void onceInRegion(int n, const float *A, const float *B, float *C,
                  float *D) {
#pragma omp parallel
  {
#pragma omp single
    {
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: {{.*}} rewritten to call {{.*}} [-Rpass=gemm]
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int k = 0; k < n; ++k)
            C[i * n + j] += A[i * n + k] * B[k * n + j];
    }
#pragma omp master
    {
#pragma omp task
      {
        // CHECK: :[[@LINE+1]]:9: remark: GEMM recognised: {{.*}} rewritten to call {{.*}} [-Rpass=gemm]
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k)
              D[i * n + j] += A[i * n + k] * B[k * n + j];
      }
    }
#pragma omp critical
    {
      // CHECK: :[[@LINE+1]]:7: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region (line [[@LINE-23]]), where every thread that reaches it would launch the whole product [-Rpass-missed=gemm]
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int k = 0; k < n; ++k)
            D[i * n + j] += A[i * n + k] * B[k * n + j];
    }
  }
}
