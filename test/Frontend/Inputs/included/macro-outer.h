// Includes a file beside it by a name that a macro spells, which a copy
// could not rename, and a header with a nest.
#define HELPER_HEADER "helper.h"
#include HELPER_HEADER
#include "macro-inner.h"
