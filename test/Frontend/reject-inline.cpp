// Calls that cannot be read as their bodies leave the nest as written, and
// the remark names what the call does that the rewrite would lose or could
// not know.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// OUT-NOT: gemm_opt_nest

int g_count;
static float counted(float a, float b) {
  g_count++;
  return a * b;
}
void global(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'counted' writes 'g_count', a global the loop does not write [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += counted(A[i * n + k], B[k * n + j]);
}

static float memo(float a, float b) {
  static float last;
  last = a * b;
  return last;
}
void staticLocal(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'memo' writes 'last', a static local that keeps its value from call to call [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += memo(A[i * n + k], B[k * n + j]);
}

struct Counter {
  float *d;
  int n, reads;
  float get(int i, int j) { ++reads; return d[i * n + j]; }
};
void member(Counter &A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'get' writes 'reads', a member of the object it is called on, which the launcher would not update [-Rpass-missed=gemm]
  for (int i = 0; i < A.n; ++i)
    for (int j = 0; j < A.n; ++j)
      for (int k = 0; k < A.n; ++k)
        C[i * A.n + j] += A.get(i, k) * B[k * A.n + j];
}

struct Ops {
  float (*get)(const float *, int);
};
void pointer(const Ops &ops, int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'get' is called through a function pointer, whose target is not known at compile time [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += ops.get(A, i * n + k) * B[k * n + j];
}

struct Base {
  float *d;
  int n;
  virtual float at(int i, int j) const { return d[i * n + j]; }
};
void virtualCall(const Base &A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'at' is virtual: the function called depends on the object's dynamic type [-Rpass-missed=gemm]
  for (int i = 0; i < A.n; ++i)
    for (int j = 0; j < A.n; ++j)
      for (int k = 0; k < A.n; ++k)
        C[i * A.n + j] += A.at(i, k) * B[k * A.n + j];
}

static int rec(int i, int n) { return i == 0 ? 0 : n + rec(i - 1, n); }
void recursive(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'rec' is recursive [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[rec(i, n) + k] * B[k * n + j];
}

float external(const float *b, int k, int j, int n);
void noBody(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'external' has no body in this translation unit, so its effects are unknown [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * external(B, k, j, n);
}

void staleCopy(int n, const float *A, const float *B, float *C) {
  int ld = 1;
  auto at = [=](int i, int k) { return A[i * ld + k]; };
  ld = n;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'at' captures 'ld' by copy, and 'ld' is assigned in the function: the copy may hold an older value [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += at(i, k) * B[k * n + j];
}

static inline short idx16(short r, short c, short ld) { return r + c * ld; }
void narrow(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'idx16' takes 'r' as 'short', which does not hold every value of its argument ('int') [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[idx16(i, k, n)] * B[k * n + j];
}

static float early(int n, const float *x, const float *y) {
  if (n <= 0)
    return 0;
  float s = 0;
  for (int l = 0; l < n; ++l)
    s += x[l] * y[l];
  return s;
}
void earlyReturn(int n, const float *A, const float *BT, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'early' returns before the end of its body [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      C[i * n + j] = early(n, A + i * n, BT + j * n);
}

// The helper's writes are the nest's: one through a pointer parameter that
// names an input is a write besides the accumulation.
static void axpyBoth(int n, float a, float *x, float *y) {
  for (int j = 0; j < n; ++j) {
    y[j] += a * x[j];
    x[j] = 0;
  }
}
void writesInput(int n, const float *A, float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: '(&B[k * n])[j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      axpyBoth(n, A[i * n + k], &B[k * n], &C[i * n]);
}
