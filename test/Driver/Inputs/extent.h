// The extent of with-header.cpp's nest; a build may set another.
#ifndef EXTENT
#define EXTENT 8
#endif
