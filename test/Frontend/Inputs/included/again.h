// Includes once-again.h a second time; #pragma once skips it.
#include "once-again.h"
