// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// libFuzzer target: the long accumulator against the MPFR oracle on arbitrary byte strings.
//
// The input is read as a program: each step takes one opcode byte and the bytes of its operands
// (raw bit patterns, so every double, NaN payloads and subnormals included, is reachable):
//   op % 4 == 0: add(x)              op % 4 == 1: add_product(a, b)
//   op % 4 == 2: add(x) to a second accumulator, merged into the first at the end
//   op % 4 == 3: add_product(a, b) to the second accumulator
// Any difference in the bits of round<double>(), round<float>() or round_pair() aborts.
#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

double read_double(const std::uint8_t*& data, std::size_t& size) {
  std::uint64_t bits = 0;
  const std::size_t n = size < 8 ? size : 8;
  std::memcpy(&bits, data, n);
  data += n;
  size -= n;
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 8) == 0;
}

bool same(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0;
}

void fail(const char* what, double got, double expected) {
  std::fprintf(stderr, "%s: got %a, oracle %a\n", what, got, expected);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ExKokkos::LongAccumulator acc[2];
  ExKokkosTest::ExactSum oracle;
  while (size > 0) {
    const std::uint8_t op = *data++;
    --size;
    ExKokkos::LongAccumulator& target = acc[(op >> 1) & 1];
    if (op & 1) {
      const double a = read_double(data, size), b = read_double(data, size);
      target.add_product(a, b);
      oracle.add_product(a, b);
    } else {
      const double x = read_double(data, size);
      target.add(x);
      oracle.add(x);
    }
  }
  acc[0].merge(acc[1]);
  const double d = acc[0].round();
  if (!same(d, oracle.round_double())) fail("round<double>", d, oracle.round_double());
  const float f = acc[0].round<float>();
  if (!same(f, oracle.round_float())) fail("round<float>", f, oracle.round_float());
  double hi, lo;
  acc[0].round_pair(hi, lo);
  const auto pair = oracle.round_pair();
  if (!same(hi, pair.first)) fail("round_pair hi", hi, pair.first);
  if (!same(lo, pair.second)) fail("round_pair lo", lo, pair.second);
  return 0;
}
