// Found by the quoted include of quoted.h, in its directory.
