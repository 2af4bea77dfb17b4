# The tree-sitter runtime and grammars behind `sutra outline` and `sutra symbol` (docs/outline.md).
#
# Recipe (b) of stack.md §4: the C runtime vendored in the npm package tree-sitter@0.25.0
# (ABI 15, still loads ABI 13-14 grammars) and one pinned npm tarball per grammar, each checked
# against its SHA-512 in cmake/npm-pins.txt. Nothing generated is committed.
#
# Sets SUTRA_TREE_SITTER_FOUND. When npm or the registry is unreachable (or SUTRA_OUTLINE=OFF),
# it is OFF, the build goes on without those two commands, and their tests skip.
# Targets when found: sutra_tree_sitter (runtime + every grammar, INTERFACE), and the variable
# SUTRA_TREE_SITTER_DIRS: name=folder pairs of the extracted packages, for tests and benchmarks.

option(SUTRA_OUTLINE "fetch tree-sitter and its grammars (npm) for sutra outline/symbol" ON)

# "name version folder-var extract-paths..." for every package; grammars are built from
# <folder>/<subdir>/src below.
set(sutra_ts_packages
  "tree-sitter 0.25.0 ts_runtime_dir package/vendor/tree-sitter/lib/src package/vendor/tree-sitter/lib/include package/LICENSE package/index.js package/tree-sitter.d.ts"
  "tree-sitter-python 0.25.0 ts_python_dir package/src package/LICENSE"
  "tree-sitter-javascript 0.25.0 ts_javascript_dir package/src package/LICENSE package/grammar.js"
  "tree-sitter-typescript 0.23.2 ts_typescript_dir package/typescript/src package/tsx/src package/common package/LICENSE package/bindings/node/index.d.ts"
  "tree-sitter-rust 0.24.0 ts_rust_dir package/src package/LICENSE"
  "tree-sitter-go 0.25.0 ts_go_dir package/src package/LICENSE"
  "tree-sitter-c 0.24.1 ts_c_dir package/src package/LICENSE"
  "tree-sitter-cpp 0.23.4 ts_cpp_dir package/src package/LICENSE"
  "tree-sitter-java 0.23.5 ts_java_dir package/src package/LICENSE"
  "tree-sitter-bash 0.25.1 ts_bash_dir package/src package/LICENSE"
  "tree-sitter-json 0.24.8 ts_json_dir package/src package/LICENSE")

set(SUTRA_TREE_SITTER_FOUND OFF)
set(SUTRA_TREE_SITTER_DIRS "")
if(SUTRA_OUTLINE)
  set(missing "")
  foreach(entry IN LISTS sutra_ts_packages)
    string(REPLACE " " ";" fields "${entry}")
    list(POP_FRONT fields name version var)
    sutra_npm_package(${name} ${version} ${var} OPTIONAL EXTRACT ${fields})
    if(NOT ${var})
      list(APPEND missing ${name})
    endif()
    list(APPEND SUTRA_TREE_SITTER_DIRS "${name}=${${var}}")
  endforeach()
  if(missing)
    message(WARNING "sutra outline/symbol unavailable in this build: ${missing} could not be fetched")
  else()
    set(SUTRA_TREE_SITTER_FOUND ON)
  endif()
endif()

if(SUTRA_TREE_SITTER_FOUND)
  set(ts_lib "${ts_runtime_dir}/vendor/tree-sitter/lib")
  add_library(sutra_ts_runtime STATIC "${ts_lib}/src/lib.c")
  target_include_directories(sutra_ts_runtime SYSTEM PUBLIC "${ts_lib}/include" PRIVATE "${ts_lib}/src")
  # le16toh, be16toh and fdopen need these on glibc (stack.md §4.3).
  target_compile_definitions(sutra_ts_runtime PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
  set_target_properties(sutra_ts_runtime PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF
                                                    POSITION_INDEPENDENT_CODE ON)
  target_compile_options(sutra_ts_runtime PRIVATE -w)

  add_library(sutra_tree_sitter INTERFACE)
  target_link_libraries(sutra_tree_sitter INTERFACE sutra_ts_runtime)

  # One static library per grammar, exporting tree_sitter_<lang>(); generated code, so -w.
  function(sutra_ts_grammar lang src)
    set(srcs "${src}/parser.c")
    if(EXISTS "${src}/scanner.c")
      list(APPEND srcs "${src}/scanner.c")
    endif()
    add_library(sutra_ts_${lang} STATIC ${srcs})
    # The grammar's own tree_sitter/parser.h must win over the runtime's.
    target_include_directories(sutra_ts_${lang} PRIVATE "${src}")
    set_target_properties(sutra_ts_${lang} PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF
                                                      POSITION_INDEPENDENT_CODE ON)
    target_compile_options(sutra_ts_${lang} PRIVATE -w)
    target_link_libraries(sutra_tree_sitter INTERFACE sutra_ts_${lang})
  endfunction()

  sutra_ts_grammar(python "${ts_python_dir}/src")
  sutra_ts_grammar(javascript "${ts_javascript_dir}/src")
  sutra_ts_grammar(typescript "${ts_typescript_dir}/typescript/src")
  sutra_ts_grammar(tsx "${ts_typescript_dir}/tsx/src")
  sutra_ts_grammar(rust "${ts_rust_dir}/src")
  sutra_ts_grammar(go "${ts_go_dir}/src")
  sutra_ts_grammar(c "${ts_c_dir}/src")
  sutra_ts_grammar(cpp "${ts_cpp_dir}/src")
  sutra_ts_grammar(java "${ts_java_dir}/src")
  sutra_ts_grammar(bash "${ts_bash_dir}/src")
  sutra_ts_grammar(json "${ts_json_dir}/src")
  message(STATUS "sutra outline: tree-sitter 0.25.0 and 11 grammars, checksums verified")
endif()
