// A product whose extent each program sets (-DEXTENT=...): gemm-opt lifts
// the nest with it, so each program needs its own rewrite.
static double A[EXTENT][EXTENT], B[EXTENT][EXTENT], C[EXTENT][EXTENT];

double product() {
  for (int i = 0; i < EXTENT; ++i)
    for (int j = 0; j < EXTENT; ++j) {
      A[i][j] = (i + j + j) % 5;
      B[i][j] = (i + i + i + j) % 7 - 3;
    }
  for (int i = 0; i < EXTENT; ++i)
    for (int j = 0; j < EXTENT; ++j) {
      double sum = 0;
      for (int k = 0; k < EXTENT; ++k)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
  double sum = 0;
  for (int i = 0; i < EXTENT; ++i)
    for (int j = 0; j < EXTENT; ++j)
      sum += C[i][j];
  return sum;
}
