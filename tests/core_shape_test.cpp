#include "core/rewrite/shape.hpp"

#include <gtest/gtest.h>

#include <string>

namespace sutra::core {
namespace {

TEST(Shape, DetectsDiffsAnywhere) {
    EXPECT_TRUE(contains_diff("diff --git a/x b/x\nindex 1..2\n"));
    EXPECT_TRUE(contains_diff("log line\n--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,3 @@\n x\n"));
    EXPECT_TRUE(contains_diff("--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n"));
    EXPECT_TRUE(
        contains_diff("From 3b18e512dba79e4c8300dd08aeb37f8e728b8dad Mon Sep 17 00:00:00 2001\n"));
    // A mail's first line below other output, where the scan runs 16 bytes a step.
    EXPECT_TRUE(contains_diff(std::string(70, 'x') +
                              "\nFrom 3b18e512dba79e4c8300dd08aeb37f8e728b8dad Mon Sep 17 00:00:00 "
                              "2001\nSubject: [PATCH] fix\n\n---\n"));
    EXPECT_FALSE(contains_diff("--- separator ---\n+++ plus +++\nno hunk\n"));
    EXPECT_FALSE(contains_diff("@@ -1 +1 @@ without headers\n"));
    // rustfmt's: a header naming the file and line, then changed lines (coloured or not).
    EXPECT_TRUE(contains_diff("Diff in /w/src/lib.rs:12:\n-fn f( ){}\n+fn f() {}\n"));
    EXPECT_TRUE(contains_diff("x\nDiff in src/lib.rs at line 3:\n fn a() {}\n-b\n"));
    EXPECT_TRUE(contains_diff("Diff in src/lib.rs:1:\n\x1b[31m-pub fn f( ){}\n"));
    EXPECT_FALSE(contains_diff("Diff in progress:\n-a\n"));
    EXPECT_FALSE(contains_diff("Diff in src/lib.rs:12:\nnothing changed\n"));
    EXPECT_FALSE(contains_diff("Diff in src/lib.rs:12:"));
}

TEST(Shape, ClassifiesCommonOutputs) {
    EXPECT_EQ(detect_shape(""), Shape::empty);
    EXPECT_EQ(detect_shape(std::string("\0\1\2", 3)), Shape::binary);
    EXPECT_EQ(detect_shape("{\"a\": [1, 2]}"), Shape::json);
    EXPECT_EQ(detect_shape("[1, 2"), Shape::text);
    EXPECT_EQ(
        detect_shape("Traceback (most recent call last):\n  File \"x\", line 1\nValueError\n"),
        Shape::traceback);
    EXPECT_EQ(detect_shape("== test session starts ==\nt.py::a PASSED\n"), Shape::test_log);
    EXPECT_EQ(detect_shape("a.c:1:2: error: x\n"), Shape::build_log);
    EXPECT_EQ(detect_shape("hello\nworld\n"), Shape::text);
}

} // namespace
} // namespace sutra::core
