//===- autotune-host.cu - GEMM_OPT_TUNE's reading of the database ---------===//
//
// Prints what readMeasured keeps of a tuning database for a two-kernel f32
// plan, and what tunedAtRunTime answers without a GPU. Host code.
//
//===----------------------------------------------------------------------===//
#include "tuning/tune_at_run_time.h"

#include <cstdio>
#include <sstream>

namespace {

cudaError_t none(const gemm_rt::Problem &, cudaStream_t) {
  return cudaSuccess;
}

const gemm_rt::Variant variants[] = {
    {none, 128, 128, 1, 40000, 1, 1, "block=128,128,8 thread=8,8"},
    {none, 64, 64, 2, 30000, 1, 1, "block=64,64,16 thread=4,4"},
};
const gemm_rt::Plan plan{variants, 2, 3350.0, "0.2.0", "abc"};

} // namespace

int main() {
  std::istringstream db(
      "device,cc,sms,driver,cuda,gemm_opt,templates,dtype,layout,batch,m,n,"
      "k,beta_zero,splits,schedule,us,gflops,cublas_gflops,check\n"
      // 4096^3: the 64x64 kernel split twice is the fastest that passed.
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,4096,4096,4096,1,1,"
      "\"block=128,128,8 thread=8,8\",10,40000,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,4096,4096,4096,1,2,"
      "\"block=64,64,16 thread=4,4\",9,45000,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,4096,4096,4096,1,1,"
      "\"block=64,64,16 thread=4,4\",5,90000,0,fail\n"
      // Skipped: another GPU, build, templates, type, layout, kernel.
      "\"GPU Y\",90,132,1,1,0.2.0,abc,f32,rrr,1,512,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.1.0,abc,f32,rrr,1,513,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,def,f32,rrr,1,514,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f64,rrr,1,515,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rcr,1,516,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,517,512,512,1,1,"
      "\"block=32,32,8 thread=2,2\",1,1,0,pass\n"
      // Malformed: too few fields, an unterminated quote, no extents.
      "\"GPU X\",90,132\n"
      "\"GPU X,90,132,1,1,0.2.0,abc,f32,rrr,1,518,512,512,1,1,x,1,1,0,pass\n"
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,0,512,512,1,1,"
      "\"block=128,128,8 thread=8,8\",1,1,0,pass\n"
      // 1000^3: the 128x128 kernel.
      "\"GPU X\",90,132,1,1,0.2.0,abc,f32,rrr,1,1000,1000,1000,1,1,"
      "\"block=128,128,8 thread=8,8\",100,20000,0,pass\n");
  for (const gemm_rt::Measured &m : gemm_rt::detail::readMeasured(
           db, "GPU X", plan, gemm_rt::DType::F32, "rrr"))
    std::printf("%lldx%lldx%lldx%lld: variant %d, %lld-way split\n",
                (long long)m.batch, (long long)m.m, (long long)m.n,
                (long long)m.k, m.variant, (long long)m.splits);
  const gemm_rt::Problem p{"autotune", gemm_rt::DType::F32, 1, 64, 64, 64,
                           {nullptr, 0, 64, 1}, {nullptr, 0, 64, 1},
                           {nullptr, 0, 64, 1}, 1.0, 0.0};
  std::printf("without a GPU: %s\n",
              gemm_rt::detail::tunedAtRunTime(p, plan) ? "measured"
                                                        : "the model's");
  return 0;
}
