#include "CFilenote.h"

// A release build made by `make` links an object that defines this function
// again, returning the version of that build (the Makefile's VERSION_STAMP):
// the linker takes that definition over this weak one. The version cannot be
// compiled in, because Swift has no string-valued -D, and a generated source
// file would leave a plain `swift build` of a fresh clone with nothing to
// compile; linking it in costs a release build a relink, not a recompile.
__attribute__((weak)) const char *filenote_build_version(void) { return NULL; }
