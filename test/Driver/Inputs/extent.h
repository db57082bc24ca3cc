// The extent of with-header.cpp's nest.
#define EXTENT 8
