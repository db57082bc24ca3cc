// A function whose address the program passes on (a thread pool's
// parallel-for, in NNPACK's style) runs once per row and column that its
// caller's loops give it. Its one loop summing the products of element
// (i, j) is no nest, but it is part of one: it gets a remark that says where
// the other loops are. The same function called directly is inlined into
// the nest that calls it, which gets the remark; a passed function whose
// loop reads one index (a row of a matrix-vector product) and a dot product
// that is called are no matrix products, and get none.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu --reference-kernel 2>&1 | FileCheck %s --implicit-check-not=remark:
#include <stddef.h>
typedef void (*task_2d)(const void *, size_t, size_t);
typedef void (*task_1d)(const void *, size_t);
void parallelize_2d(task_2d task, const void *context, size_t rows,
                    size_t columns);
void parallelize_1d(task_1d task, const void *context, size_t rows);

struct fc_context {
  size_t inputs, outputs;
  const float *input, *kernel;
  float *output;
};

static void fc_element(const struct fc_context *c, size_t sample,
                       size_t channel) {
  double v = 0.0;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop sums the products of one element of a matrix product, whose row and column are the parameters 'sample' and 'channel' of 'fc_element'; the program passes that function on (as a callback), so the loops over them run in code gemm-opt does not see [-Rpass-missed=gemm]
  for (size_t i = 0; i < c->inputs; i++)
    v += (double)c->input[sample * c->inputs + i] *
         (double)c->kernel[channel * c->inputs + i];
  c->output[sample * c->outputs + channel] = (float)v;
}

static void row_of_gemv(const struct fc_context *c, size_t channel) {
  float v = 0;
  for (size_t i = 0; i < c->inputs; i++)
    v += c->input[i] * c->kernel[channel * c->inputs + i];
  c->output[channel] = v;
}

static float dot(const float *a, const float *b, size_t n) {
  float s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static void called_element(const float *a, const float *b, float *c,
                           size_t k, size_t n, size_t i, size_t j) {
  float s = 0;
  for (size_t p = 0; p < k; p++)
    s += a[i * k + p] * b[p * n + j];
  c[i * n + j] = s;
}

void fully_connected(size_t batch, size_t inputs, size_t outputs,
                     const float *input, const float *kernel, float *output) {
  const struct fc_context c = {inputs, outputs, input, kernel, output};
  parallelize_2d((task_2d)fc_element, &c, batch, outputs);
  parallelize_1d((task_1d)row_of_gemv, &c, outputs);
  output[0] = dot(input, kernel, inputs);
}

void product(size_t m, size_t n, size_t k, const float *a, const float *b,
             float *c) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++)
      called_element(a, b, c, k, n, i, j);
}
