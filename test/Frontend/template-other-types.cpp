// TNN's NaiveFC, instantiated for float and for a 16-bit float class: the
// nest reads its operands through float conversions, so the double
// instantiation that gemm-opt would make to show that the launchers follow
// T rounds each product and is no GEMM. A, B and C are each of type T, so
// the class's instantiation passes pointers that no float launcher takes:
// its calls go to the overload that runs the nest as written, and the
// float one is rewritten. The bias is added under `if (bias)`, and the
// bounds are elements of a std::vector<int> passed by value.
//
// RUN: gemm-opt %s --reference-kernel -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %nvcc -std=c++17 -I %gemm_runtime_include -c %t.cu -o %t.o
#include <vector>

typedef std::vector<int> DimsVector;
struct bfp16_t {
  unsigned short w = 0;
  bfp16_t() = default;
  explicit bfp16_t(float) {}
  operator float() const { return 0.f; }
};

template <typename T>
void NaiveFC(T *input_ptr, T *output_ptr, T *weight_data, float *bias,
             DimsVector dims_input, DimsVector dims_output) {
  int ip_dim_in = dims_input[1];
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (dims_output[1]) x (dims_output[0]) x ip_dim_in; A row-major, B column-major, C column-major; accumulates in 'acc', alpha = 1, beta = 0; epilogue: + 'bias[oc]' (none if null) (instantiations of other types run the nest as written); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int n = 0; n < dims_output[0]; ++n) {
    T *in_current_batch = input_ptr + n * ip_dim_in;
    T *ou_current_batch = output_ptr + n * dims_output[1];
    for (int oc = 0; oc < dims_output[1]; ++oc) {
      float acc = 0;
      for (int ic = 0; ic < ip_dim_in; ++ic)
        acc += float(static_cast<T *>(weight_data)[oc * ip_dim_in + ic]) *
               float(in_current_batch[ic]);
      if (bias)
        acc += bias[oc];
      ou_current_batch[oc] = T(acc);
    }
  }
}
template void NaiveFC(float *, float *, float *, float *, DimsVector,
                      DimsVector);
template void NaiveFC(bfp16_t *, bfp16_t *, bfp16_t *, float *, DimsVector,
                      DimsVector);
