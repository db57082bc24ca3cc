//===- TuningFormat.h - The tuning database's columns -----------*- C++ -*-===//
//
// The header line of a tuning database (docs/tuning.md): what the programs
// that time kernels on a GPU write (bench/bench.cu) and what gemm-opt's
// reader (TuningDb.h) requires. Plain C++, so that device programs can
// include it.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TARGET_TUNINGFORMAT_H
#define GEMM_OPT_TARGET_TUNINGFORMAT_H

namespace gemm_tuning {

constexpr const char *kHeader =
    "device,cc,sms,driver,cuda,gemm_opt,templates,dtype,layout,batch,m,n,k,"
    "beta_zero,splits,schedule,us,gflops,cublas_gflops,check";

} // namespace gemm_tuning

#endif // GEMM_OPT_TARGET_TUNINGFORMAT_H
