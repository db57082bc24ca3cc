// A header that includes another (inner.h) with a nest.
#include "inner.h"
