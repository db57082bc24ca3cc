// Accessors that read private members (ParRes's prk::vector, oopack's
// Matrix): the launcher call, in a function that is no member or friend of
// the class, reads each member through a member pointer that an explicit
// instantiation hands out (the one place where C++ checks no access). The
// declarations go once before the outermost declaration that holds the
// function; nests in templates and classes that no name reaches from
// namespace scope stay as written.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// The host file compiles, without a warning, by the host compiler.
// RUN: gemm-opt %s --reference-kernel -o %t.host.cpp --kernels=%t.kernels.cu -- -std=c++17 2>/dev/null
// RUN: %host_cxx -std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter -fsyntax-only %t.host.cpp

namespace prk {
template <typename T> class vector {
private:
  T *data_;
  unsigned long size_;

public:
  vector(T *data, unsigned long n) : data_(data), size_(n) {}
  T &operator[](unsigned long i) { return data_[i]; }
  const T &operator[](unsigned long i) const { return data_[i]; }
};
} // namespace prk

namespace kernels {
// OUT: namespace { struct [[PRKTAG:gemm_opt_member_[0-9a-f]+]] { typedef double *prk::vector<double>::*type; friend type gemm_opt_member([[PRKTAG]]); }; template <[[PRKTAG]]::type M> struct [[PRKTAG]]_of { friend [[PRKTAG]]::type gemm_opt_member([[PRKTAG]]) { return M; } }; template struct [[PRKTAG]]_of<&::prk::vector<double>::data_>; }
// OUT-NEXT: #line [[@LINE+1]]
void prk_dgemm(const int order, const prk::vector<double> &A,
               const prk::vector<double> &B, prk::vector<double> &C) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = order x order x order; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0((A.*gemm_opt_member([[PRKTAG]]())), order, order, order, 1, (B.*gemm_opt_member([[PRKTAG]]())),
  for (int i = 0; i < order; ++i)
    for (int k = 0; k < order; ++k)
      for (int j = 0; j < order; ++j)
        C[i * order + j] += A[i * order + k] * B[k * order + j];
}
// The same member again, tiled: no second declaration.
// OUT-NOT: struct [[PRKTAG]] {
void prk_dgemm(const int order, const int tile, const prk::vector<double> &A,
               const prk::vector<double> &B, prk::vector<double> &C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, {{.*}}rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int it = 0; it < order; it += tile)
    for (int kt = 0; kt < order; kt += tile)
      for (int jt = 0; jt < order; jt += tile) {
        int iend = it + tile < order ? it + tile : order;
        int jend = jt + tile < order ? jt + tile : order;
        int kend = kt + tile < order ? kt + tile : order;
        for (int i = it; i < iend; ++i)
          for (int k = kt; k < kend; ++k)
            for (int j = jt; j < jend; ++j)
              C[i * order + j] += A[i * order + k] * B[k * order + j];
      }
}
} // namespace kernels

// oopack's Matrix: a private pointer, public sizes, the nest in a method of
// another class defined out of line.
class Matrix {
private:
  double *data;

public:
  int rows, cols;
  Matrix(int rows_, int cols_, double *data_)
      : data(data_), rows(rows_), cols(cols_) {}
  double &operator()(int i, int j) { return data[cols * i + j]; }
};
class Benchmark {
  double *C, *D, *E;
  int L;

public:
  void oop_style() const;
};
// OUT: template struct {{.*}}<&::Matrix::data>; }
// OUT-NEXT: #line [[@LINE+1]]
void Benchmark::oop_style() const {
  Matrix c(L, L, C);
  Matrix d(L, L, D);
  Matrix e(L, L, E);
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = e.rows x e.cols x e.cols; {{.*}}rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < e.rows; i++)
    for (int j = 0; j < e.cols; j++) {
      double sum = 0;
      for (int k = 0; k < e.cols; k++)
        sum += c(i, k) * d(k, j);
      e(i, j) = sum;
    }
}

// Private sizes too, column-major; the nest in a function of an
// `extern "C"` block (the declarations go before the block: templates
// cannot have C linkage) and in a method defined in its class.
class Hidden {
  float *d;
  int ld;

public:
  Hidden(float *d, int ld) : d(d), ld(ld) {}
  float &operator()(int i, int j) const { return d[i + j * ld]; }
};
// OUT: template struct {{.*}}<&::Hidden::d>; }
// OUT: template struct {{.*}}<&::Hidden::ld>; }
// OUT-NEXT: #line [[@LINE+1]]
extern "C" {
void hidden(int m, int n, int k, const Hidden &A, const Hidden &B, Hidden &C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C column-major; {{.*}}rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += A(i, p) * B(p, j);
      C(i, j) = s;
    }
}
}
struct Layer {
  int out, in;
  void forward(int batch, const Hidden &W, const Hidden &X, Hidden &Y) {
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, {{.*}}rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
    for (int b = 0; b < batch; ++b)
      for (int o = 0; o < out; ++o) {
        float s = 0;
        for (int i = 0; i < in; ++i)
          s += W(o, i) * X(i, b);
        Y(o, b) = s;
      }
  }
};

// Near-misses. A template's guard serves every instantiation, and one tag
// cannot.
template <class T> class Box {
  T *p;
  int ld;

public:
  Box(T *p, int ld) : p(p), ld(ld) {}
  T &operator()(int i, int j) const { return p[i * ld + j]; }
};
template <class T>
void templated(int n, const Box<T> &A, const Box<T> &B, Box<T> &C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: in its instantiation 'templated<float>': 'operator()' reads 'p', a member that the launcher call, where the nest is, cannot name: 'p' is private, and the nest is in a template [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C(i, j) += A(i, k) * B(k, j);
}
template void templated(int, const Box<float> &, const Box<float> &,
                        Box<float> &);

// A class of the function itself: no name reaches it from outside.
void local(int n, float *a, float *b, float *c) {
  class View {
    float *p;

  public:
    explicit View(float *p) : p(p) {}
    float &at(int i) const { return p[i]; }
  } A(a), B(b), C(c);
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'at' reads 'p', a member that the launcher call, where the nest is, cannot name: 'p' is private to a class that is local, unnamed or private itself [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C.at(i * n + j) += A.at(i * n + k) * B.at(k * n + j);
}

// A private class nested in another: its name is private too.
class Outer {
  class Inner {
    float *p;

  public:
    explicit Inner(float *p) : p(p) {}
    float &at(int i) const { return p[i]; }
  };

public:
  static void run(int n, float *a, float *b, float *c);
};
void Outer::run(int n, float *a, float *b, float *c) {
  Inner A(a), B(b), C(c);
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'at' reads 'p', a member that the launcher call, where the nest is, cannot name: 'p' is private to a class that is local, unnamed or private itself [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C.at(i * n + j) += A.at(i * n + k) * B.at(k * n + j);
}

// A friend function template may name the members of every instantiation
// of the class it befriends (plumed2's Matrix<T> and its mult): the
// launcher call reads them as written.
template <typename T> class Befriended;
template <typename T>
void friendMult(const Befriended<T> &A, const Befriended<T> &B,
                Befriended<T> &C);
template <typename T> class Befriended {
  template <typename U>
  friend void friendMult(const Befriended<U> &, const Befriended<U> &,
                         Befriended<U> &);
  unsigned rows, cols;
  T *p;

public:
  Befriended(unsigned r, unsigned c, T *p) : rows(r), cols(c), p(p) {}
  const T &operator()(unsigned i, unsigned j) const { return p[j + i * cols]; }
  T &operator()(unsigned i, unsigned j) { return p[j + i * cols]; }
};
template <typename T>
void friendMult(const Befriended<T> &A, const Befriended<T> &B,
                Befriended<T> &C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = A.rows x B.cols x A.cols; {{.*}} [-Rpass=gemm]
  for (unsigned i = 0; i < A.rows; ++i)
    for (unsigned j = 0; j < B.cols; ++j)
      for (unsigned k = 0; k < A.cols; ++k)
        C(i, j) += A(i, k) * B(k, j);
}
void useFriend(Befriended<double> &a, Befriended<double> &b,
               Befriended<double> &c) {
  friendMult(a, b, c);
}
