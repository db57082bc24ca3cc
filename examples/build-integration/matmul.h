/* What matmul.c offers main.cpp. */
#ifndef MATMUL_H
#define MATMUL_H
#ifdef __cplusplus
extern "C" {
#endif
/* C = A * B, m x k times k x n, column-major without padding. */
void matmul_colmajor(int m, int n, int k, const double *a, const double *b,
                     double *c);
#ifdef __cplusplus
}
#endif
#endif
