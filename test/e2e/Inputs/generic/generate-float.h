#define real float
#define Real_(name) name##_float
#line 1 GENERIC_FILE
#include GENERIC_FILE
#undef real
#undef Real_
