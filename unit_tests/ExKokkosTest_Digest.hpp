// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A digest of result bits for the reproducibility suites: runs write it to files that ctest
// compares across thread counts, rank counts or builds (header-only, Kokkos-free).
#ifndef EXKOKKOSTEST_DIGEST_HPP
#define EXKOKKOSTEST_DIGEST_HPP

#include <cstdint>
#include <cstring>
#include <vector>

namespace ExKokkosTest {

// FNV-1a over the bit patterns (so -0 and +0, and NaN payloads, differ).
inline std::uint64_t digest(const std::vector<double>& v) {
  std::uint64_t h = 1469598103934665603ull;
  for (double d : v) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    for (int b = 0; b < 8; ++b) {
      h ^= (bits >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_DIGEST_HPP
