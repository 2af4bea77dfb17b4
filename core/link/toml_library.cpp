// toml++'s compiled part, built into sutra instead of loaded from libtomlplusplus.so
// (cmake/Libraries.cmake says why). toml++ documents this mode: every other file includes the
// headers with TOML_HEADER_ONLY=0, and exactly one defines TOML_IMPLEMENTATION first.

#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
