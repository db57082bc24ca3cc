// The extent of tile.cpp's product, set by the build (-DTILE=...).
#ifndef TILE_SIZE_H
#define TILE_SIZE_H
#ifndef TILE
#error "define TILE, the extent of the tile product"
#endif
enum { kTile = TILE };
#endif
