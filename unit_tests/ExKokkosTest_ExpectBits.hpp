// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Element-by-element bitwise comparison of a result vector with the oracle's, reporting the
// first few differences in "%a (%.17g)" form (header-only, shared by the matrix test suites).
#ifndef EXKOKKOSTEST_EXPECTBITS_HPP
#define EXKOKKOSTEST_EXPECTBITS_HPP

#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ExKokkosTest {

template <class T>
void expect_bits(const std::vector<T>& expected, const std::vector<T>& got, const std::string& what,
                 const char* element = "x") {
  ASSERT_EQ(expected.size(), got.size()) << what;
  int failures = 0;
  for (std::size_t i = 0; i < got.size() && failures < 5; ++i)
    if (!same_bits(expected[i], got[i])) {
      ++failures;
      ADD_FAILURE() << what << ": " << element << "(" << i << ") = " << describe(got[i])
                    << ", expected " << describe(expected[i]);
    }
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_EXPECTBITS_HPP
