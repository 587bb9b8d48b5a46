// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::CompensatedLanes<W>: W CompensatedSums side by side (ExKokkos_CompensatedSum.hpp),
// advanced one term per lane at a time, for CPU threads that round many short sums (the host LU
// updates W entries of a column or row at once). The lanes run the same branch-free steps, so the
// loops vectorize (CompensatedSum needs no check per term: NaN, infinities and huge terms show in
// the magnitude sum at the end), and the caller sums a lane whose rounding is not certified
// exactly. Each lane's certificate is CompensatedSum's, on that lane's sums.
#ifndef EXKOKKOS_COMPENSATEDLANES_HPP
#define EXKOKKOS_COMPENSATEDLANES_HPP

#include "ExKokkos_Compat.hpp"
#include "ExKokkos_CompensatedSum.hpp"

namespace ExKokkos {
namespace Impl {

template <int W>
class CompensatedLanes {
  static_assert(W >= 1 && W <= 64, "CompensatedLanes<W> needs 1 <= W <= 64");

 public:
  static constexpr int lanes = W;

  KOKKOS_INLINE_FUNCTION CompensatedLanes() {
    for (int j = 0; j < W; ++j) s_[j] = c_[j] = magnitude_[j] = 0.0;
  }

  // Adds v[j] to lane j for every j.
  KOKKOS_INLINE_FUNCTION void add(const double (&v)[W]) {
    EXKOKKOS_SIMD
    for (int j = 0; j < W; ++j) {
      double q;
      two_sum(s_[j], v[j], s_[j], q);
      c_[j] += q;
      magnitude_[j] += Impl::compat::fabs(v[j]);
    }
    terms_ += 1;
  }

  // Adds the product of the factors f(k, j, a, b) to lane j for every k < count and every j.
  template <class Factors>
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION void add_products(const Factors& f, int count) {
    for (int k = 0; k < count; ++k) {
      EXKOKKOS_SIMD
      for (int j = 0; j < W; ++j) {
        double a, b, q;
        f(k, j, a, b);
        const double p = Impl::mul_rn(a, b);
        const double e = Impl::compat::fma(a, b, -p);  // TwoProd (its exactness: see the margin)
        two_sum(s_[j], p, s_[j], q);
        c_[j] += q;
        c_[j] += e;
        magnitude_[j] += Impl::compat::fabs(p);
      }
    }
    terms_ += 2 * count;
  }

  // RN(lane j's exact sum) when certified; false when the caller must sum that lane exactly.
  KOKKOS_INLINE_FUNCTION bool round(int j, double& result) const {
    return Impl::round_compensated(s_[j], c_[j], magnitude_[j], terms_, result);
  }

  // Every lane rounded at once, branch-free so that it vectorizes: result[j] is lane j's head
  // plus errors; true when every lane's is RN(its exact sum) (round's certificate), false when some
  // lane is not certified (then the results mean nothing and the caller sums exactly). Callers that
  // fill spare lanes with copies of a real one (the LU's last chunk) lose nothing by asking for all
  // W.
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION bool round_all(double (&result)[W]) const {
    if (terms_ > Impl::compensated_max_terms) return false;
    int refused = 0;
    EXKOKKOS_SIMD_REDUCE_OR(refused)
    for (int j = 0; j < W; ++j)
      refused |=
          Impl::certified_compensated(s_[j], c_[j], magnitude_[j], terms_, result[j]) ? 0 : 1;
    return refused == 0;
  }

  // Lane j's sum as a CompensatedSum (head, errors' sum, magnitude, error terms).
  KOKKOS_INLINE_FUNCTION CompensatedSum lane(int j) const {
    return CompensatedSum(s_[j], c_[j], magnitude_[j], terms_);
  }

  // The W lanes as one CompensatedSum of all their terms, for one sum walked by all the lanes
  // (exgemv's inner_lanes): the heads folded pairwise with TwoSum (W - 1 of them, their errors
  // into c), the errors' sums and the magnitudes added pairwise.
  //
  // Why CompensatedSum's margin still holds, with k = W terms() + W - 1 error terms: the exact sum
  // is still the head plus every error term (the lanes' and the fold's TwoSum errors) plus the
  // lanes' U. Each error of the fold is at most u times the TwoSum's result, and that result is at
  // most (1 + u)^(steps + log2 W) times the sum of the |x_i| of the lanes under it, steps being a
  // lane's head updates (at most terms()): so every error term is still at most u (1 + u)^k P and
  // sum |t| <= u P (1 + k (1 + u)^k). The errors' sums are added in a tree rather than in a row,
  // but Higham's bound gamma_{k-1} sum |t| holds for any order of summation (each term passes
  // through at most k - 1 roundings; op. cit., section 4.2), and the magnitudes, each through at
  // most terms() + log2 W <= k roundings, keep the computed P >= (1 - u)^k P. The count saturates
  // above 2^20, where round_compensated refuses anyway.
  KOKKOS_INLINE_FUNCTION CompensatedSum fold() const {
    static_assert((W & (W - 1)) == 0, "fold needs a power-of-two number of lanes");
    double s[W], c[W], magnitude[W];
    for (int j = 0; j < W; ++j) {
      s[j] = s_[j];
      c[j] = c_[j];
      magnitude[j] = magnitude_[j];
    }
    for (int h = W / 2; h >= 1; h /= 2) {
      EXKOKKOS_SIMD
      for (int j = 0; j < h; ++j) {
        double q;
        two_sum(s[j], s[j + h], s[j], q);
        c[j] = (c[j] + c[j + h]) + q;
        magnitude[j] += magnitude[j + h];
      }
    }
    const long long k = static_cast<long long>(terms_) * W + (W - 1);
    constexpr long long saturated = (1 << 20) + 1;
    return CompensatedSum(s[0], c[0], magnitude[0],
                          static_cast<int>(k < saturated ? k : saturated));
  }

 private:
  double s_[W], c_[W], magnitude_[W];  // per lane: the head, the errors' sum, the sum of |x_i|
  int terms_ = 0;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDLANES_HPP
