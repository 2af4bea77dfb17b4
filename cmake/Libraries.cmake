# How the third-party libraries and the C++ runtime are linked (docs/libraries.md, "Linking").
#
# Every hook call and every command the Bash route wraps starts a sutra process, so start-up is
# paid on every tool call. Loading a shared library costs page faults and relocations: on the
# 2-core machines measured, a dynamic libstdc++ alone adds ~50 page faults and ~1.8 ms to a
# process that prints one line, and sutra-host loaded six libraries (docs/benchmark.md,
# "Session 11: start-up and calls"). With SUTRA_STATIC_RUNTIME (the default) the shipped programs and adapter modules
# link libstdc++, libgcc, fmt, toml++, libsodium and PCRE2 in, and load only libc and libm.
#
# The sources are still Debian's packages: fmt and toml++ are compiled from their packaged
# headers (core/link/), libsodium and PCRE2 from their packaged static archives. A security
# update of one of them therefore needs a rebuild of sutra; -DSUTRA_STATIC_RUNTIME=OFF links
# them all as shared libraries instead, as sanitizer builds always do.
#
# Targets for the rest of the build to link, whichever way is chosen:
#   sutra::fmt  sutra::toml  sutra::sodium  sutra::pcre2
# and sutra_static_runtime(TARGET) for each shipped executable and module.

option(SUTRA_STATIC_RUNTIME "link the C++ runtime and fmt, toml++, libsodium, PCRE2 into the shipped binaries" ON)
if(SUTRA_INSTRUMENTED)
  set(SUTRA_STATIC_RUNTIME OFF) # the sanitizers' runtimes expect the shared C++ runtime
endif()

pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
if(SUTRA_STATIC_RUNTIME)
  find_library(SUTRA_SODIUM_ARCHIVE NAMES libsodium.a)
  find_library(SUTRA_PCRE2_ARCHIVE NAMES libpcre2-8.a)
  if(NOT SUTRA_SODIUM_ARCHIVE OR NOT SUTRA_PCRE2_ARCHIVE OR NOT fmt_VERSION VERSION_LESS 10)
    message(WARNING "SUTRA_STATIC_RUNTIME needs libsodium.a, libpcre2-8.a and fmt 9: linking shared")
    set(SUTRA_STATIC_RUNTIME OFF)
  endif()
endif()

add_library(sutra_fmt INTERFACE)
add_library(sutra_toml INTERFACE)
add_library(sutra_sodium INTERFACE)
add_library(sutra_pcre2 INTERFACE)
add_library(sutra::fmt ALIAS sutra_fmt)
add_library(sutra::toml ALIAS sutra_toml)
add_library(sutra::sodium ALIAS sutra_sodium)
add_library(sutra::pcre2 ALIAS sutra_pcre2)

if(SUTRA_STATIC_RUNTIME)
  # Warnings are the libraries' own: these files are not built with sutra_warnings.
  add_library(sutra_fmt_code STATIC ${PROJECT_SOURCE_DIR}/core/link/fmt_library.cpp)
  add_library(sutra_toml_code STATIC ${PROJECT_SOURCE_DIR}/core/link/toml_library.cpp)
  target_compile_definitions(sutra_toml_code PUBLIC TOML_HEADER_ONLY=0)
  target_link_libraries(sutra_fmt INTERFACE sutra_fmt_code)
  target_link_libraries(sutra_toml INTERFACE sutra_toml_code)
  target_link_libraries(sutra_sodium INTERFACE ${SUTRA_SODIUM_ARCHIVE})
  target_include_directories(sutra_sodium SYSTEM INTERFACE ${SODIUM_INCLUDE_DIRS})
  target_link_libraries(sutra_pcre2 INTERFACE ${SUTRA_PCRE2_ARCHIVE})
  target_include_directories(sutra_pcre2 SYSTEM INTERFACE ${PCRE2_INCLUDE_DIRS})
  target_compile_definitions(sutra_pcre2 INTERFACE PCRE2_STATIC)
else()
  target_link_libraries(sutra_fmt INTERFACE fmt::fmt)
  target_link_libraries(sutra_toml INTERFACE tomlplusplus::tomlplusplus)
  target_link_libraries(sutra_sodium INTERFACE PkgConfig::SODIUM)
  target_link_libraries(sutra_pcre2 INTERFACE PkgConfig::PCRE2)
endif()

# A shipped program or module: its own copy of the C++ runtime. A module hides that copy
# (--exclude-libs), so the host's and each module's never meet: the ABI between them is C
# (plugins/abi/plugin_abi.h), and a module frees its own strings.
function(sutra_static_runtime target)
  if(NOT SUTRA_STATIC_RUNTIME)
    return()
  endif()
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "MODULE_LIBRARY" OR type STREQUAL "SHARED_LIBRARY")
    target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
  endif()
endfunction()
