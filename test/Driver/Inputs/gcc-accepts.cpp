// C++ that GCC compiles and clang 19 rejects by default: a name after the
// template keyword without a template argument list (as bundled cereal has).
struct S {
  template <class T> static int f() { return 1; }
};
template <class U> int g() { return sizeof(&U::template f); }

void mm(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
