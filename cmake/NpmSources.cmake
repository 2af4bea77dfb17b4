# Pinned npm tarballs as build inputs, fetched at configure time (reference: stack.md §4.6).
#
#   sutra_npm_package(<name> <version> <out_var> [OPTIONAL] EXTRACT <path>...)
#
# - The SHA-512 pin is read from cmake/npm-pins.txt ("NAME VERSION SHA512HEX" per line); a
#   package without a pin is a configure error, so nothing unpinned ever enters the build.
# - `npm pack` writes the tarball into ${CMAKE_BINARY_DIR}/_deps/npm. It runs no install
#   scripts, and --prefer-offline lets npm's own cache serve later configures without network.
#   A tarball already in that folder is reused, which is also how an offline machine is seeded.
# - A digest mismatch is always fatal and deletes the tarball: that is tampering or a bad pin,
#   never a transient failure.
# - When npm is missing or the registry cannot be reached: fatal, unless OPTIONAL is given; then
#   a warning is printed and <out_var> is set to "" so the caller can build without the package.
# - Only the EXTRACT paths (paths inside the tarball, e.g. package/data) are unpacked, into
#   ${CMAKE_BINARY_DIR}/_deps/npm/<name>-<version>/. Every path must exist in the tarball.
# - <out_var> receives the extracted "package" folder.

set(SUTRA_NPM_PINS "${CMAKE_CURRENT_LIST_DIR}/npm-pins.txt")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${SUTRA_NPM_PINS}")

# Sets out_var to the pinned SHA-512 (hex) of name@version, or "" when there is no pin.
function(sutra_npm_pin name version out_var)
  file(STRINGS "${SUTRA_NPM_PINS}" lines)
  set(found "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*#" OR line STREQUAL "")
      continue()
    endif()
    string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
    list(LENGTH fields count)
    if(count EQUAL 3)
      list(GET fields 0 pin_name)
      list(GET fields 1 pin_version)
      list(GET fields 2 pin_sha)
      if(pin_name STREQUAL name AND pin_version STREQUAL version)
        string(TOLOWER "${pin_sha}" found)
        break()
      endif()
    endif()
  endforeach()
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()

function(sutra_npm_package name version out_var)
  cmake_parse_arguments(PARSE_ARGV 3 arg "OPTIONAL" "" "EXTRACT")
  if(NOT arg_EXTRACT)
    message(FATAL_ERROR "sutra_npm_package(${name}): EXTRACT needs at least one path")
  endif()
  sutra_npm_pin("${name}" "${version}" sha512)
  if(sha512 STREQUAL "")
    message(FATAL_ERROR "${name}@${version}: no pin in ${SUTRA_NPM_PINS}")
  endif()

  # npm names scoped tarballs "scope-name-version.tgz".
  string(REGEX REPLACE "^@" "" file_stem "${name}")
  string(REPLACE "/" "-" file_stem "${file_stem}")
  set(cache "${CMAKE_BINARY_DIR}/_deps/npm")
  set(tgz "${cache}/${file_stem}-${version}.tgz")
  set(dir "${cache}/${file_stem}-${version}")
  file(MAKE_DIRECTORY "${cache}")

  if(NOT EXISTS "${tgz}")
    find_program(NPM_EXECUTABLE npm)
    set(failure "")
    if(NOT NPM_EXECUTABLE)
      set(failure "npm not found")
    else()
      message(STATUS "npm pack ${name}@${version}")
      execute_process(COMMAND "${NPM_EXECUTABLE}" pack "${name}@${version}" --pack-destination "${cache}"
                              --silent --prefer-offline
                      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 300)
      if(NOT rc EQUAL 0 OR NOT EXISTS "${tgz}")
        string(STRIP "${err}" err)
        set(failure "npm pack failed (${rc}): ${err}")
        file(REMOVE "${tgz}")
      endif()
    endif()
    if(failure)
      if(arg_OPTIONAL)
        message(WARNING "${name}@${version} unavailable, building without it: ${failure}")
        set(${out_var} "" PARENT_SCOPE)
        return()
      endif()
      message(FATAL_ERROR "${name}@${version}: ${failure}")
    endif()
  endif()

  file(SHA512 "${tgz}" actual)
  if(NOT actual STREQUAL sha512)
    file(REMOVE "${tgz}")
    message(FATAL_ERROR "${name}@${version}: SHA-512 mismatch (tarball deleted)\n  want ${sha512}\n  got  ${actual}")
  endif()

  # The stamp holds the digest and the path list, so a changed pin or EXTRACT list re-extracts.
  set(stamp_text "${sha512} ${arg_EXTRACT}")
  set(stamp "${dir}/.extracted")
  set(current "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" current)
  endif()
  if(NOT current STREQUAL stamp_text)
    file(REMOVE_RECURSE "${dir}")
    file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${dir}" PATTERNS ${arg_EXTRACT})
    foreach(path IN LISTS arg_EXTRACT)
      if(NOT EXISTS "${dir}/${path}")
        message(FATAL_ERROR "${name}@${version}: '${path}' is not in the tarball")
      endif()
    endforeach()
    file(WRITE "${stamp}" "${stamp_text}")
  endif()
  set(${out_var} "${dir}/package" PARENT_SCOPE)
endfunction()
