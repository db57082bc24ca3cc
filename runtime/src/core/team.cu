//===- team.cu - Whether an OpenMP team is active ------------------------===//
//
// The guard of a nest whose loop carries an orphaned `omp for` asks this
// before it launches: inside an active parallel region the team shares the
// loop as written. omp_in_parallel is weak, so that a program without
// OpenMP links (it has no team).
//
//===----------------------------------------------------------------------===//

extern "C" int omp_in_parallel(void) __attribute__((weak));

extern "C" int gemm_opt_in_parallel(void) {
  return omp_in_parallel ? omp_in_parallel() : 0;
}
