// Only float and double GEMMs, with A, B and C of one type, are rewritten.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-types.cpp"
// OUT-NOT: gemm_opt_nest

int IA[16][16], IB[16][16], IC[16][16];
float F[16][16];
double D[16][16], E[16][16];
long double LA[16][16], LB[16][16], LC[16][16];

void types() {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: element type 'int' of 'IA[i][k]' is not float or double [-Rpass-missed=gemm]
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k)
        IC[i][j] += IA[i][k] * IB[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: element type 'long double' of 'LA[i][k]' is not float or double [-Rpass-missed=gemm]
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k)
        LC[i][j] += LA[i][k] * LB[k][j];

  // A float input into a double C.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: mixed element types (float, double -> double): A, B and C must all be float or all double [-Rpass-missed=gemm]
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k)
        E[i][j] += F[i][k] * D[k][j];

  // Double inputs into a float C.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: mixed element types (double, double -> float): A, B and C must all be float or all double [-Rpass-missed=gemm]
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k)
        F[i][j] += D[i][k] * E[k][j];
}
