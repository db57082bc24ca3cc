// Found beside macro-outer.h.
static const int helperValue = 1;
