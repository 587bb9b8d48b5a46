// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The MPFR oracle of the ExKokkos tests: exact sums (and exact sums of products) of doubles,
// rounded once at the end. It shares no code with ExKokkos' long accumulator.
#ifndef EXKOKKOSTEST_ORACLE_HPP
#define EXKOKKOSTEST_ORACLE_HPP

#include <mpfr.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ExKokkosTest {

// An exact accumulator. Every term is a multiple of 2^-2148 (the last bit of the smallest exact
// product of two doubles) below 2^2048 in magnitude, so a sum of up to 2^64 terms is an integer
// multiple of 2^-2148 below 2^2112: 4260 bits hold it exactly. The value is kept with 4400 bits
// and every MPFR operation is checked to be exact (ternary value 0).
//
// IEEE semantics beside the value: any NaN term, inf * 0, or +inf with -inf give NaN; otherwise
// an infinite term gives that infinity; an exact zero is -0 only when there was at least one term
// and every term was -0 (the sign of a zero product is the XOR of its factors' signs); a fresh
// accumulator is +0. A non-zero exact value that rounds to zero keeps its sign.
class ExactSum {
 public:
  static constexpr mpfr_prec_t precision = 4400;

  ExactSum();
  ExactSum(const ExactSum& other);
  ExactSum(ExactSum&& other) noexcept;
  ExactSum& operator=(ExactSum other) noexcept;
  ~ExactSum();
  void swap(ExactSum& other) noexcept;

  void add(double x);
  void add(float x) { add(static_cast<double>(x)); }
  void add_product(double a, double b);
  void merge(const ExactSum& other);

  double round_double() const;
  float round_float() const;
  // hi = RN(S), lo = RN(S - hi); lo = 0 when hi is not finite.
  std::pair<double, double> round_pair() const;

  // The sign of the exact finite value (-1, 0, 1), ignoring special values.
  int sign() const;
  bool has_special() const;
  mpfr_srcptr value() const { return value_; }

 private:
  void add_exact(mpfr_srcptr term);
  template <class T>
  T round_to(mpfr_exp_t emin, mpfr_exp_t emax, mpfr_prec_t prec) const;

  mpfr_t value_;
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
  bool any_term_ = false, not_neg_zero_ = false;
};

// s rounded once to T (double or float).
template <class T>
T rounded(const ExactSum& s) {
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}

double exact_sum(const std::vector<double>& x);
float exact_sum(const std::vector<float>& x);
double exact_asum(const std::vector<double>& x);
double exact_dot(const std::vector<double>& x, const std::vector<double>& y);
float exact_dot(const std::vector<float>& x, const std::vector<float>& y);
// The correctly rounded square root of the exact sum of squares.
double exact_nrm2(const std::vector<double>& x);
float exact_nrm2(const std::vector<float>& x);

// RN(n / d) in T (double or float) for exact n and d. Where either is a special value or zero,
// IEEE division on them (a finite non-zero value standing in as +-1). Otherwise the quotient to
// 9000 bits, rounded once: n and d are integers times 2^-2148 below 2^4400, so a quotient that is
// no midpoint between two doubles lies at least a relative 2^-4460 from every such midpoint, far
// beyond 9000 bits' reach, and one that is a midpoint is exact at 9000 bits.
template <class T>
T exact_quotient(const ExactSum& n, const ExactSum& d);

// Aborts with a message unless an MPFR operation's ternary value says it was exact (0): the
// oracles' exact steps check every operation this way.
void require_exact(int ternary, const char* what);

// A finite MPFR value rounded once to nearest (ties to even) in double or float, with gradual
// underflow and overflow to +-inf as IEEE arithmetic does.
double round_to_double(mpfr_srcptr v);
float round_to_float(mpfr_srcptr v);

bool same_bits(double a, double b);
bool same_bits(float a, float b);
// "%a (%.17g)" for failure messages.
std::string describe(double x);
std::string describe(float x);

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_ORACLE_HPP
