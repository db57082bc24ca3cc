// A fixed-size product whose extent comes from a header on the include path
// and a -D macro, summed through a C++20 std::span.
#include "tile.h"
#include "tile_size.h"

#include <span>

static double A[kTile][kTile], B[kTile][kTile], C[kTile][kTile];

double tileProduct() {
  for (int i = 0; i < kTile; ++i)
    for (int j = 0; j < kTile; ++j) {
      A[i][j] = (i + j + j) % 5;
      B[i][j] = (i + i + i + j) % 7 - 3;
      C[i][j] = 0;
    }
  for (int i = 0; i < kTile; ++i)
    for (int j = 0; j < kTile; ++j)
      for (int k = 0; k < kTile; ++k)
        C[i][j] += A[i][k] * B[k][j];
  double sum = 0;
  for (double x : std::span(&C[0][0], kTile * kTile))
    sum += x;
  return sum;
}
