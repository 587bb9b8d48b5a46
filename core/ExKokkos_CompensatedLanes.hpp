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

 private:
  double s_[W], c_[W], magnitude_[W];  // per lane: the head, the errors' sum, the sum of |x_i|
  int terms_ = 0;
};

}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDLANES_HPP
