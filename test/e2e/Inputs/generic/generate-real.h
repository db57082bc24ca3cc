/* Stamps out GENERIC_FILE once per element type (torch7's
 * THGenerateFloatTypes.h): each inclusion reads it with its own `real`. */
#ifndef GENERIC_FILE
#error "define GENERIC_FILE first"
#endif
#include "generate-float.h"
#include "generate-double.h"
#include "generate-int.h"
#undef GENERIC_FILE
