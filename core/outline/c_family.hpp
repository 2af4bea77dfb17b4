#pragma once
// C and C++ text before tree-sitter sees it: whether a `.h` file holds C++, and the
// annotation macros a grammar cannot know (they are not expanded) blanked out.

#include <string>
#include <string_view>

namespace sutra::core::outline {

/// True when the code (comments, strings, preprocessor lines and `#ifdef __cplusplus` blocks
/// left out) uses C++: `namespace`, `template <`, `class Name {`/`:`, `public:`, `::` outside
/// `[[...]]`, `typename`, `nullptr`, `constexpr`, `virtual`, `noexcept`, `decltype`, `operator`
/// followed by a symbol. (`extern "C++"` is not one: glibc's C headers declare C++ overloads in
/// it.) Looks at the first 256 KiB.
bool looks_like_cpp(std::string_view text);

/// `text` with unexpanded annotation macros replaced by spaces, byte for byte (offsets and
/// lines stay), so `GTEST_API_ void f() const GTEST_LOCK_EXCLUDED_(mu) {` parses as the
/// function it is. A macro is an ALL_CAPS identifier (`_GLIBCXX20_CONSTEXPR`, `GTEST_API_`)
/// with an optional balanced argument list, blanked only where no C or C++ code can put an
/// ALL_CAPS name:
/// - before another name (`GTEST_API_ void`, `class GTEST_API_ Foo {`), when it holds an
///   underscore or has arguments (a plain `DWORD n` is left alone);
/// - after a parameter list or a `const`/`noexcept`/`override` suffix, before `{ ; : = ->`;
/// - after `namespace NAME` before `{` (`namespace std _GLIBCXX_VISIBILITY(default) {`);
/// - alone on its line between statements (`_GLIBCXX_BEGIN_NAMESPACE_VERSION`).
/// Comments and strings are never touched, nor are preprocessor lines unless
/// `first_branches`: then a condition that splits a declaration (`inline #if A int #else
/// void #endif f()`) loses its directive lines and every `#elif`/`#else` branch, so the
/// declaration reads as its first version.
std::string mask_annotation_macros(std::string_view text, bool first_branches);

} // namespace sutra::core::outline
