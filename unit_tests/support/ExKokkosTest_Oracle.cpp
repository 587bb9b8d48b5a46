// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExKokkosTest_Oracle.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace ExKokkosTest {

void require_exact(int ternary, const char* what) {
  if (ternary != 0) {
    std::fprintf(stderr, "ExKokkosTest oracle: %s was not exact\n", what);
    std::abort();
  }
}

namespace {

// Restores MPFR's exponent range on scope exit.
class ExponentRange {
 public:
  ExponentRange(mpfr_exp_t emin, mpfr_exp_t emax) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
  ~ExponentRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }

 private:
  mpfr_exp_t emin_, emax_;
};

// Correct rounding to a binary format with `prec` bits and MPFR exponents [emin, emax] (MPFR's
// significands are in [1/2, 1)): set the exponent range, let `op` round into prec bits, let
// check_range produce overflow/underflow, then subnormalize, which uses the first rounding's
// ternary value to avoid a double rounding (MPFR manual, "mpfr_subnormalize"). The result then
// converts to T exactly.
template <class T, class Op>
T round_in_format(mpfr_exp_t emin, mpfr_exp_t emax, mpfr_prec_t prec, Op op) {
  mpfr_t r;
  mpfr_init2(r, prec);
  T result;
  {
    ExponentRange range(emin, emax);
    int t = op(r);
    t = mpfr_check_range(r, t, MPFR_RNDN);
    t = mpfr_subnormalize(r, t, MPFR_RNDN);
    result = sizeof(T) == sizeof(double) ? static_cast<T>(mpfr_get_d(r, MPFR_RNDN))
                                         : static_cast<T>(mpfr_get_flt(r, MPFR_RNDN));
  }
  mpfr_clear(r);
  return result;
}

}  // namespace

ExactSum::ExactSum() {
  mpfr_init2(value_, precision);
  mpfr_set_zero(value_, 1);
}

ExactSum::ExactSum(const ExactSum& other)
    : nan_(other.nan_),
      pos_inf_(other.pos_inf_),
      neg_inf_(other.neg_inf_),
      any_term_(other.any_term_),
      not_neg_zero_(other.not_neg_zero_) {
  mpfr_init2(value_, precision);
  require_exact(mpfr_set(value_, other.value_, MPFR_RNDN), "copy");
}

ExactSum::ExactSum(ExactSum&& other) noexcept : ExactSum() {
  swap(other);
}

ExactSum& ExactSum::operator=(ExactSum other) noexcept {
  swap(other);
  return *this;
}

void ExactSum::swap(ExactSum& other) noexcept {
  mpfr_swap(value_, other.value_);
  std::swap(nan_, other.nan_);
  std::swap(pos_inf_, other.pos_inf_);
  std::swap(neg_inf_, other.neg_inf_);
  std::swap(any_term_, other.any_term_);
  std::swap(not_neg_zero_, other.not_neg_zero_);
}

ExactSum::~ExactSum() {
  mpfr_clear(value_);
}

void ExactSum::add_exact(mpfr_srcptr term) {
  require_exact(mpfr_add(value_, value_, term, MPFR_RNDN), "addition");
}

void ExactSum::add(double x) {
  any_term_ = true;
  if (!(x == 0.0 && std::signbit(x))) not_neg_zero_ = true;
  if (std::isnan(x)) {
    nan_ = true;
    return;
  }
  if (std::isinf(x)) {
    (x > 0 ? pos_inf_ : neg_inf_) = true;
    return;
  }
  if (x == 0.0) return;
  mpfr_t t;
  mpfr_init2(t, 53);
  require_exact(mpfr_set_d(t, x, MPFR_RNDN), "conversion");
  add_exact(t);
  mpfr_clear(t);
}

void ExactSum::add_product(double a, double b) {
  any_term_ = true;
  const bool negative = std::signbit(a) != std::signbit(b);
  if (std::isnan(a) || std::isnan(b)) {
    nan_ = not_neg_zero_ = true;
    return;
  }
  if (std::isinf(a) || std::isinf(b)) {
    not_neg_zero_ = true;
    if (a == 0.0 || b == 0.0)
      nan_ = true;  // inf * 0
    else
      (negative ? neg_inf_ : pos_inf_) = true;
    return;
  }
  if (a == 0.0 || b == 0.0) {
    if (!negative) not_neg_zero_ = true;  // +0 term
    return;
  }
  not_neg_zero_ = true;
  mpfr_t ta, tb, p;
  mpfr_inits2(53, ta, tb, nullptr);
  mpfr_init2(p, 106);  // a 53 x 53-bit product fits exactly in 106 bits
  require_exact(mpfr_set_d(ta, a, MPFR_RNDN), "conversion");
  require_exact(mpfr_set_d(tb, b, MPFR_RNDN), "conversion");
  require_exact(mpfr_mul(p, ta, tb, MPFR_RNDN), "product");
  add_exact(p);
  mpfr_clears(ta, tb, p, nullptr);
}

void ExactSum::merge(const ExactSum& other) {
  add_exact(other.value_);
  nan_ |= other.nan_;
  pos_inf_ |= other.pos_inf_;
  neg_inf_ |= other.neg_inf_;
  any_term_ |= other.any_term_;
  not_neg_zero_ |= other.not_neg_zero_;
}

int ExactSum::sign() const {
  return mpfr_sgn(value_);
}

bool ExactSum::has_special() const {
  return nan_ || pos_inf_ || neg_inf_;
}

template <class T>
T ExactSum::round_to(mpfr_exp_t emin, mpfr_exp_t emax, mpfr_prec_t prec) const {
  if (nan_ || (pos_inf_ && neg_inf_)) return std::numeric_limits<T>::quiet_NaN();
  if (pos_inf_) return std::numeric_limits<T>::infinity();
  if (neg_inf_) return -std::numeric_limits<T>::infinity();
  if (mpfr_zero_p(value_)) {
    const bool negative = any_term_ && !not_neg_zero_;
    return negative ? -T(0) : T(0);
  }
  return round_in_format<T>(emin, emax, prec,
                            [&](mpfr_ptr r) { return mpfr_set(r, value_, MPFR_RNDN); });
}

double round_to_double(mpfr_srcptr v) {
  return round_in_format<double>(-1073, 1024, 53,
                                 [&](mpfr_ptr r) { return mpfr_set(r, v, MPFR_RNDN); });
}

float round_to_float(mpfr_srcptr v) {
  return round_in_format<float>(-148, 128, 24,
                                [&](mpfr_ptr r) { return mpfr_set(r, v, MPFR_RNDN); });
}

template <class T>
T exact_quotient(const ExactSum& n, const ExactSum& d) {
  const bool n_plain = !n.has_special() && n.sign() != 0;
  const bool d_plain = !d.has_special() && d.sign() != 0;
  if (!n_plain || !d_plain) {
    const double nv = n_plain ? double(n.sign()) : n.round_double();
    const double dv = d_plain ? double(d.sign()) : d.round_double();
    return static_cast<T>(nv / dv);
  }
  mpfr_t q;
  mpfr_init2(q, 9000);
  mpfr_div(q, n.value(), d.value(), MPFR_RNDN);
  const T result = std::is_same<T, float>::value ? T(round_to_float(q)) : T(round_to_double(q));
  mpfr_clear(q);
  return result;
}
template double exact_quotient<double>(const ExactSum&, const ExactSum&);
template float exact_quotient<float>(const ExactSum&, const ExactSum&);

double ExactSum::round_double() const {
  return round_to<double>(-1073, 1024, 53);
}

float ExactSum::round_float() const {
  return round_to<float>(-148, 128, 24);
}

std::pair<double, double> ExactSum::round_pair() const {
  const double hi = round_double();
  if (!std::isfinite(hi)) return {hi, 0.0};
  ExactSum rest(*this);
  rest.any_term_ = rest.not_neg_zero_ = true;  // S - hi is an IEEE subtraction: an exact 0 is +0
  if (hi != 0.0) {
    mpfr_t t;
    mpfr_init2(t, 53);
    require_exact(mpfr_set_d(t, -hi, MPFR_RNDN), "conversion");
    rest.add_exact(t);
    mpfr_clear(t);
  }
  return {hi, rest.round_double()};
}

double exact_sum(const std::vector<double>& x) {
  ExactSum s;
  for (double v : x) s.add(v);
  return s.round_double();
}

float exact_sum(const std::vector<float>& x) {
  ExactSum s;
  for (float v : x) s.add(v);
  return s.round_float();
}

double exact_asum(const std::vector<double>& x) {
  ExactSum s;
  for (double v : x) s.add(std::fabs(v));
  return s.round_double();
}

double exact_dot(const std::vector<double>& x, const std::vector<double>& y) {
  ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) s.add_product(x[i], y[i]);
  return s.round_double();
}

float exact_dot(const std::vector<float>& x, const std::vector<float>& y) {
  ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) s.add_product(double(x[i]), double(y[i]));
  return s.round_float();
}

namespace {

// sqrt of the exact sum of squares, correctly rounded: mpfr_sqrt rounds correctly into the
// target format (round_in_format).
template <class T>
T rounded_sqrt(const ExactSum& squares, mpfr_exp_t emin, mpfr_exp_t emax, mpfr_prec_t prec) {
  if (squares.has_special()) {
    const double s = squares.round_double();
    return static_cast<T>(std::isnan(s) ? s : std::sqrt(s));
  }
  if (squares.sign() == 0) return T(0);
  return round_in_format<T>(emin, emax, prec,
                            [&](mpfr_ptr r) { return mpfr_sqrt(r, squares.value(), MPFR_RNDN); });
}

}  // namespace

double exact_nrm2(const std::vector<double>& x) {
  ExactSum s;
  for (double v : x) s.add_product(v, v);
  return rounded_sqrt<double>(s, -1073, 1024, 53);
}

float exact_nrm2(const std::vector<float>& x) {
  ExactSum s;
  for (float v : x) s.add_product(double(v), double(v));
  return rounded_sqrt<float>(s, -148, 128, 24);
}

bool same_bits(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  return x == y || (std::isnan(a) && std::isnan(b));
}

bool same_bits(float a, float b) {
  std::uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y || (std::isnan(a) && std::isnan(b));
}

std::string describe(double x) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "%a (%.17g)", x, x);
  return buf;
}

std::string describe(float x) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "%a (%.9g)", static_cast<double>(x), static_cast<double>(x));
  return buf;
}

}  // namespace ExKokkosTest
