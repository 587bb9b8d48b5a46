// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The check every bad-input test makes: a call throws std::invalid_argument naming an ExKokkos
// routine, and every view it was given keeps its bytes (a refused call writes nothing).
#ifndef EXKOKKOSTEST_REFUSALS_HPP
#define EXKOKKOSTEST_REFUSALS_HPP

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ExKokkosTest {

// The bytes of every view's span (contiguous host views).
template <class... Views>
std::vector<unsigned char> bytes_of(const Views&... views) {
  std::vector<unsigned char> out;
  const auto add = [&out](const auto& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    out.insert(out.end(), p, p + v.span() * sizeof(typename std::decay_t<decltype(v)>::value_type));
  };
  (add(views), ...);
  return out;
}

// `call` throws std::invalid_argument whose message names an ExKokkos routine, and leaves every
// view of `views` as it was.
template <class Call, class... Views>
void expect_refused(const std::string& what, const Call& call, const Views&... views) {
  const std::vector<unsigned char> before = bytes_of(views...);
  bool refused = false;
  try {
    call();
  } catch (const std::invalid_argument& e) {
    refused = true;
    EXPECT_NE(std::string(e.what()).find("ExKokkos::"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(refused) << what << ": not refused with std::invalid_argument";
  EXPECT_TRUE(before == bytes_of(views...)) << what << ": a view was written";
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_REFUSALS_HPP
