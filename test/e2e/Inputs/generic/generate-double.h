#define real double
#define Real_(name) name##_double
#line 1 GENERIC_FILE
#include GENERIC_FILE
#undef real
#undef Real_
