// C++ that GCC compiles and clang 19 rejects by default: a name after the
// template keyword without a template argument list (as bundled cereal has),
// a `register` local in C++17, a narrowing conversion of a variable in a
// braced initialiser.
struct S {
  template <class T> static int f() { return 1; }
};
template <class U> int g() { return sizeof(&U::template f); }
int narrowed(double d) {
  int a[1] = {d};
  return a[0];
}

void mm(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      register float s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
