#define real int
#define Real_(name) name##_int
#line 1 GENERIC_FILE
#include GENERIC_FILE
#undef real
#undef Real_
