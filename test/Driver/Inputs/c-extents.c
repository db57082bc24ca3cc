/* A C source whose extents come from macros; a build may set others. */
#ifndef ROWS
#define ROWS 12
#endif
enum { INNER = 6 };

double A[ROWS][INNER], B[INNER][ROWS], C[ROWS][ROWS];

void product(void) {
  int i, j, k;
  for (i = 0; i < ROWS; i++)
    for (j = 0; j < ROWS; j++) {
      C[i][j] = 0;
      for (k = 0; k < INNER; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}
