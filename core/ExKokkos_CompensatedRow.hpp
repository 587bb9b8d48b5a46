// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::CompensatedRow: a row of CompensatedSums (ExKokkos_CompensatedSum.hpp) stored as three
// arrays, the heads, the errors' sums and the magnitudes, all with the same number of error
// terms, so that one product a * b[i] can be added to every sum i of the row at once. The host LU
// keeps one per row of the matrix and adds step k's products to the whole trailing matrix
// (right-looking), where CompensatedLanes holds a few sums in registers and walks their terms
// (left-looking): contiguous rows vectorize with no idle lane and no gather.
//
// Each sum takes exactly CompensatedSum's steps (a TwoSum with the first term, which is exact
// against a zero head; then a TwoProd and a TwoSum per product, the two errors added to c, |p|
// to the magnitude), so CompensatedSum's margin and certificate hold for each, with the row's
// common count of error terms.
#ifndef EXKOKKOS_COMPENSATEDROW_HPP
#define EXKOKKOS_COMPENSATEDROW_HPP

#include "ExKokkos_Compat.hpp"
#include "ExKokkos_CompensatedSum.hpp"

#include <cstddef>

namespace ExKokkos {
namespace Impl {

class CompensatedRow {
 public:
  // Views three arrays of `count` doubles each (not owned).
  KOKKOS_INLINE_FUNCTION CompensatedRow(double* heads, double* errors, double* magnitudes,
                                        int count)
      : s_(heads), c_(errors), magnitude_(magnitudes), count_(count) {}

  // Starts sum i at the first term x(i) (CompensatedSum().add(x(i))).
  template <class Terms>
  KOKKOS_INLINE_FUNCTION void start(const Terms& x) {
    for (int i = 0; i < count_; ++i) {
      const double v = x(i);
      s_[i] = v;
      c_[i] = 0.0;
      magnitude_[i] = Impl::compat::fabs(v);
    }
  }

  // One product a * b added to the sum (s, c, magnitude): CompensatedSum::add_product's steps.
  KOKKOS_FORCEINLINE_FUNCTION static void add_product_to(double a, double b, double& s, double& c,
                                                         double& magnitude) {
    double q;
    const double p = Impl::mul_rn(a, b);
    const double e = Impl::compat::fma(a, b, -p);  // TwoProd
    double head;
    two_sum(s, p, head, q);
    s = head;
    c = (c + q) + e;
    magnitude += Impl::compat::fabs(p);
  }

  // Adds the product a * b[i] to sum i, for every i (CompensatedSum::add_product).
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION void add_products(double a, const double* b) {
    double* const s = s_;
    double* const c = c_;
    double* const magnitude = magnitude_;
    EXKOKKOS_SIMD
    for (int i = 0; i < count_; ++i) add_product_to(a, b[i], s[i], c[i], magnitude[i]);
  }

  // Adds a1 * b1[i] and then a2 * b2[i] to sum i, for every i: the operations of
  // add_products(a1, b1) followed by add_products(a2, b2), so the same sums, with each sum loaded
  // and stored once for the two.
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION void add_products_twice(double a1,
                                                                            const double* b1,
                                                                            double a2,
                                                                            const double* b2) {
    double* const s = s_;
    double* const c = c_;
    double* const magnitude = magnitude_;
    EXKOKKOS_SIMD
    for (int i = 0; i < count_; ++i) {
      double si = s[i], ci = c[i], mi = magnitude[i];
      add_product_to(a1, b1[i], si, ci, mi);
      add_product_to(a2, b2[i], si, ci, mi);
      s[i] = si;
      c[i] = ci;
      magnitude[i] = mi;
    }
  }

  // Adds the products a[k] * b[k ldb + i], k = 0, ..., steps - 1 in this order, to every sum i:
  // the same operations on each sum as add_products(a[k], b + k ldb) for each k in turn, so the
  // same sums, but the sums of a block of lanes stay in registers for all the steps, where
  // add_products loads and stores them at every step (and waits on one TwoSum chain per lane).
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION void add_product_steps(const double* a,
                                                                           int steps,
                                                                           const double* b,
                                                                           std::size_t ldb) {
    constexpr int W = 32;  // four AVX-512 vectors per array: independent chains hide latency
    int first = 0;
    for (; first + W <= count_; first += W) {
      double s[W], c[W], magnitude[W];
      for (int i = 0; i < W; ++i) {
        s[i] = s_[first + i];
        c[i] = c_[first + i];
        magnitude[i] = magnitude_[first + i];
      }
      for (int k = 0; k < steps; ++k) {
        const double ak = a[k];
        const double* const bk = b + std::size_t(k) * ldb + std::size_t(first);
        EXKOKKOS_SIMD
        for (int i = 0; i < W; ++i) add_product_to(ak, bk[i], s[i], c[i], magnitude[i]);
      }
      for (int i = 0; i < W; ++i) {
        s_[first + i] = s[i];
        c_[first + i] = c[i];
        magnitude_[first + i] = magnitude[i];
      }
    }
    if (first < count_) {
      CompensatedRow rest(s_ + first, c_ + first, magnitude_ + first, count_ - first);
      for (int k = 0; k < steps; ++k) rest.add_products(a[k], b + std::size_t(k) * ldb + first);
    }
  }

  // Rounds every sum, each with `terms` error terms: result[i] = RN(sum i) and certified[i] = 1
  // where CompensatedSum's certificate holds, certified[i] = 0 where the caller must sum exactly.
  // Returns the number of sums certified.
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION int round(int terms, double* result,
                                                              int* certified) const {
    if (terms > Impl::compensated_max_terms) {
      for (int i = 0; i < count_; ++i) certified[i] = 0;
      return 0;
    }
    int total = 0;
    EXKOKKOS_SIMD_REDUCE_SUM(total)
    for (int i = 0; i < count_; ++i) {
      const int ok = Impl::certified_compensated(s_[i], c_[i], magnitude_[i], terms, result[i]);
      certified[i] = ok;
      total += ok;
    }
    return total;
  }

  KOKKOS_INLINE_FUNCTION double* heads() const { return s_; }
  KOKKOS_INLINE_FUNCTION double* errors() const { return c_; }
  KOKKOS_INLINE_FUNCTION double* magnitudes() const { return magnitude_; }

 private:
  double* s_;
  double* c_;
  double* magnitude_;
  int count_;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDROW_HPP
