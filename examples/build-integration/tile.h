// What tile.cpp offers main.cpp.
#ifndef TILE_H
#define TILE_H
/// The sum of the elements of A * B for two kTile x kTile integer matrices.
double tileProduct();
#endif
