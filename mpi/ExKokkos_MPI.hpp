// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::mpi: exact reductions over the ranks of an MPI communicator. Each rank reduces its
// local part exactly into a long accumulator (the same kernel as the single-process routines),
// the accumulators are added exactly across the ranks, and the total is rounded once. The result
// is the same bits on every rank, for any number of ranks and any distribution of the data, and
// equal to the single-process routine on the whole vector.
//
//   double s = ExKokkos::mpi::exsum(space, x_local, comm);          // also exasum, exnrm2
//   double d = ExKokkos::mpi::exdot(space, x_local, y_local, comm);
//   double s = ExKokkos::mpi::exsum(x_local, comm);                 // x's default space
//   ExKokkos::mpi::exdot(space, R, X_local, Y_local, comm);          // multivectors: R(j) for
//   ExKokkos::mpi::exnrm2(space, R, X_local, comm);                  // column j, also exsum,
//   exasum
//
//   ExKokkos::LongAccumulator acc;                                 // a user's own exact sum:
//   Kokkos::parallel_reduce(policy, lambda, ExKokkos::ExactSum<>(acc));
//   ExKokkos::mpi::allreduce(acc, comm);                            // every rank: the global sum
//   double r = acc.round();
//
// Kokkos::complex<double> and Kokkos::complex<float> views too, with the single-process complex
// definitions (exdot conj(x) . y and exsum each part its exact sum rounded once, exasum and exnrm2
// real): the same real terms (ExKokkos_ComplexTerms_impl.hpp), a complex result's two parts
// exchanged as two accumulators in the same call.
//
// All are collective: every rank of comm calls them, with its own (possibly empty) local views,
// and every rank gets the result. Options may differ between ranks (they change no bits).
// Invalid arguments on one rank (mismatched extents, a bad option) do not leave the others
// waiting: that rank still takes part in the exchange, and then every rank throws
// std::invalid_argument (the rank at fault with the local message, naming the routine and the
// extents; the others saying that another rank had invalid arguments).
//
// The exchange is one MPI_Allreduce of num_digits + 1 = 133 words per accumulator (one per
// column for a multivector, two for a complex exsum or exdot, all in the same call), with a
// user-defined commutative operation that adds two accumulators exactly and normalizes at once,
// so that MPI may combine the contributions in any order
// (impl/ExKokkos_DistributedReduction_impl.hpp).
#ifndef EXKOKKOS_MPI_HPP
#define EXKOKKOS_MPI_HPP

#include <ExKokkos_config.hpp>

#if !EXKOKKOS_HAVE_MPI
#error "ExKokkos_MPI.hpp needs MPI: this ExKokkos was configured without it (ExKokkos_ENABLE_MPI)"
#endif

#include <mpi.h>

#include "impl/ExKokkos_DistributedReduction_impl.hpp"

#include <ExKokkos_Asum.hpp>
#include <ExKokkos_CorrectlyRoundedSqrt.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_LongAccumulator.hpp>
#include <ExKokkos_Nrm2.hpp>
#include <ExKokkos_Sum.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ExKokkos {
namespace Impl {

// exnrm2's rounding: the correctly rounded square root, as in the single-process exnrm2.
template <class T>
struct SqrtRoundAccumulator {
  T operator()(const LongAccumulator& squares) const { return sqrt_rounded<T>(squares); }
};

// Term makers, on canonical vectors: make(x, y, p, reduce) returns reduce(terms, count) for the
// real terms of part p of the routine's result, the terms the single-process routine sums
// (ExKokkos_ComplexTerms_impl.hpp for complex values). Parts<T> is the number of parts of the
// result: 2 for a complex exsum or exdot (real and imaginary), else 1 (exasum and exnrm2 of
// complex values are real).
struct MakeSumTerms {
  template <class T>
  static constexpr int parts() {
    return is_exact_complex<T>() ? 2 : 1;
  }
  template <class XView, class YView, class Reduce>
  LongAccumulator operator()(const XView& x, const YView&, int p, const Reduce& reduce) const {
    if constexpr (is_exact_complex<typename XView::non_const_value_type>())
      return p == 0 ? reduce(ComplexPartTerms<XView, false>{x}, x.extent(0))
                    : reduce(ComplexPartTerms<XView, true>{x}, x.extent(0));
    else
      return reduce(SumTerms<XView>{x}, x.extent(0));
  }
};
struct MakeAbsTerms {
  template <class T>
  static constexpr int parts() {
    return 1;
  }
  template <class XView, class YView, class Reduce>
  LongAccumulator operator()(const XView& x, const YView&, int, const Reduce& reduce) const {
    if constexpr (is_exact_complex<typename XView::non_const_value_type>())
      return reduce(ComplexAbsTerms<XView>{x}, 2 * x.extent(0));
    else
      return reduce(AbsTerms<XView>{x}, x.extent(0));
  }
};
struct MakeSquareTerms {
  template <class T>
  static constexpr int parts() {
    return 1;
  }
  template <class XView, class YView, class Reduce>
  LongAccumulator operator()(const XView& x, const YView&, int, const Reduce& reduce) const {
    if constexpr (is_exact_complex<typename XView::non_const_value_type>())
      return reduce(ComplexSquareTerms<XView>{x}, 2 * x.extent(0));
    else
      return reduce(square_terms_t<XView>{x}, x.extent(0));
  }
};
struct MakeDotTerms {
  template <class T>
  static constexpr int parts() {
    return is_exact_complex<T>() ? 2 : 1;
  }
  template <class XView, class YView, class Reduce>
  LongAccumulator operator()(const XView& x, const YView& y, int p, const Reduce& reduce) const {
    if constexpr (is_exact_complex<typename XView::non_const_value_type>())
      return p == 0 ? reduce(ComplexDotTerms<XView, YView, false>{x, y}, 2 * x.extent(0))
                    : reduce(ComplexDotTerms<XView, YView, true>{x, y}, 2 * x.extent(0));
    else
      return reduce(dot_terms_t<XView, YView>{x, y}, x.extent(0));
  }
};

// The result type of a routine on values of type T: T for exsum and exdot, the real type of T for
// exasum and exnrm2 (the two parts' totals of a complex result make one value).
template <class MakeTerms, class T>
using distributed_result_t =
    typename std::conditional<MakeTerms::template parts<T>() == 2, T, magnitude_t<T>>::type;

template <class Result, class Real, std::size_t Parts>
Result assemble_parts(const std::array<Real, Parts>& totals) {
  if constexpr (Parts == 2)
    return Result(totals[0], totals[1]);
  else
    return totals[0];
}

// This rank's exact sum of part p of make_terms on the canonical x and y.
template <class ExecSpace, class XView, class YView, class MakeTerms>
LongAccumulator local_part_sum(const ExecSpace& space, const char* routine, const XView& x,
                               const YView& y, const Options& options, const MakeTerms& make_terms,
                               int p) {
  return make_terms(x, y, p, [&](const auto& terms, std::size_t count) {
    return reduce_to_accumulator(space, terms, count, options, routine);
  });
}

// A rank-1 routine: the exact sums of the parts over the ranks (local() checks the arguments and
// gives the canonical x and y), rounded by Round<the real type> and assembled.
template <template <class> class Round, class T, class MakeTerms, class ExecSpace, class Operands>
distributed_result_t<MakeTerms, T> distributed_value(const ExecSpace& space, const char* routine,
                                                     MPI_Comm comm, const Options& options,
                                                     const MakeTerms& make_terms,
                                                     const Operands& operands) {
  using Result = distributed_result_t<MakeTerms, T>;
  constexpr int parts = MakeTerms::template parts<T>();
  const auto totals = distributed_parts_reduction<parts>(
      routine, comm,
      [&](int p) {
        const auto xy = operands();
        return local_part_sum(space, routine, xy.first, xy.second, options, make_terms, p);
      },
      Round<magnitude_t<T>>());
  return assemble_parts<Result>(totals);
}

// The multivector forms: R(j) := the rounded exact sums over the ranks of make_terms(x_j, y_j),
// where x_j and y_j are column j of X and Y (a rank-1 operand, or one of a single column, is
// every column's, as in the single-process exdot; the reductions of one operand pass it as both).
// Every argument is checked on every rank before anything is launched, so that a refused call
// writes nothing on any rank. R is written, and space fenced, after the exchange.
template <template <class> class Round, class ExecSpace, class RView, class XView, class YView,
          class MakeTerms>
void distributed_columns_into(const ExecSpace& space, const char* routine, MPI_Comm comm,
                              const RView& r, const XView& x, const YView& y,
                              const Options& options, const MakeTerms& make_terms) {
  using T = typename XView::non_const_value_type;
  using Result = distributed_result_t<MakeTerms, T>;
  constexpr int parts = MakeTerms::template parts<T>();
  const auto totals = distributed_column_reductions<parts>(
      routine, comm,
      [&] {
        refuse_inside_parallel_region(space, routine);
        return check_column_reduction(space, routine, r, x, y, options);
      },
      [&](int j, int p) {
        const auto xj = read_view<ExecSpace>(column(x, j));
        const auto yj = read_view<ExecSpace>(column(y, j));
        return local_part_sum(space, routine, xj, yj, options, make_terms, p);
      },
      Round<magnitude_t<T>>());
  for (std::size_t j = 0; j < totals.size(); ++j)
    Kokkos::deep_copy(space, element(r, j), assemble_parts<Result>(totals[j]));
  space.fence();
}

// The multivector forms of one operand (exsum, exasum, exnrm2) on the user's views: R(j) is the
// exact sum of make_terms(column j of X) over the ranks, rounded by Round.
template <template <class> class Round, class ExecSpace, class RView, class XView, class MakeTerms>
void distributed_one_operand_columns(const ExecSpace& space, const char* routine, MPI_Comm comm,
                                     const RView& R, const XView& X, const Options& options,
                                     const MakeTerms& make_terms) {
  require_accessible<ExecSpace, RView>();
  require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(is_exact_value<T>(),
                "ExKokkos::mpi: X must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<distributed_result_t<MakeTerms, T>, typename RView::value_type>::value,
                "ExKokkos::mpi: R must hold the routine's result type (X's value type for exsum, "
                "its real type for exasum and exnrm2) and not be const");
  const auto x = read_view<ExecSpace>(X);
  distributed_columns_into<Round>(space, routine, comm, write_view<ExecSpace>(R), x, x, options,
                                  make_terms);
}

// One operand, rank 1: the canonical x (twice, as the term makers take two operands).
template <class ExecSpace, class XView>
auto one_operand(const XView& x) {
  const auto xc = read_view<ExecSpace>(x);
  return std::make_pair(xc, xc);
}

}  // namespace Impl

namespace mpi {

// acc := the exact sum of acc over every rank of comm (collective; every rank gets the sum).
inline void allreduce(LongAccumulator& acc, MPI_Comm comm) {
  constexpr const char* routine = "ExKokkos::mpi::allreduce";
  std::uint64_t words[Impl::PackedAccumulator::num_words];
  Impl::pack(acc, words);
  Impl::PackedAccumulatorExchange(routine).allreduce(words, 1, comm);
  acc = Impl::unpack(words);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exsum(const ExecSpace& space, const XView& x, MPI_Comm comm,
                                           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::mpi::exsum: x must hold double, float or their Kokkos::complex");
  return Impl::distributed_value<Impl::RoundAccumulator, T>(
      space, "ExKokkos::mpi::exsum", comm, options, Impl::MakeSumTerms(),
      [&] { return Impl::one_operand<ExecSpace>(x); });
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exasum(const ExecSpace& space,
                                                               const XView& x, MPI_Comm comm,
                                                               const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::mpi::exasum: x must hold double, float or their Kokkos::complex");
  return Impl::distributed_value<Impl::RoundAccumulator, T>(
      space, "ExKokkos::mpi::exasum", comm, options, Impl::MakeAbsTerms(),
      [&] { return Impl::one_operand<ExecSpace>(x); });
}

template <class ExecSpace, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exdot(const ExecSpace& space, const XView& x, const YView& y,
                                           MPI_Comm comm, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::mpi::exdot: x must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::mpi::exdot: x and y must hold the same value type");
  constexpr const char* routine = "ExKokkos::mpi::exdot";
  return Impl::distributed_value<Impl::RoundAccumulator, T>(
      space, routine, comm, options, Impl::MakeDotTerms(), [&] {
        Impl::check_same_extent(routine, x, y);
        return std::make_pair(Impl::read_view<ExecSpace>(x), Impl::read_view<ExecSpace>(y));
      });
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2(const ExecSpace& space,
                                                               const XView& x, MPI_Comm comm,
                                                               const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::mpi::exnrm2: x must hold double, float or their Kokkos::complex");
  return Impl::distributed_value<Impl::SqrtRoundAccumulator, T>(
      space, "ExKokkos::mpi::exnrm2", comm, options, Impl::MakeSquareTerms(),
      [&] { return Impl::one_operand<ExecSpace>(x); });
}

// The forms without an execution space use x's default one.
template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
typename XView::non_const_value_type exsum(const XView& x, MPI_Comm comm,
                                           const Options& options = {}) {
  return exsum(typename XView::execution_space(), x, comm, options);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exasum(const XView& x, MPI_Comm comm,
                                                               const Options& options = {}) {
  return exasum(typename XView::execution_space(), x, comm, options);
}

template <class XView, class YView,
          typename std::enable_if<Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exdot(const XView& x, const YView& y, MPI_Comm comm,
                                           const Options& options = {}) {
  return exdot(typename XView::execution_space(), x, y, comm, options);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2(const XView& x, MPI_Comm comm,
                                                               const Options& options = {}) {
  return exnrm2(typename XView::execution_space(), x, comm, options);
}

// The multivector forms, as KokkosBlas' (ExKokkos_Dot.hpp and its siblings): X (and Y) rank 2,
// R a rank-1 view of one entry per column in the space's memory, R(j) the distributed routine's
// bits on column j (equal to the single-process multivector routine on the whole multivector);
// for exdot one of X and Y may be rank 1 (or of one column), paired with every column of the
// other. Every rank passes the same number of columns. One MPI_Allreduce carries every column's
// exact sum; R is written when the call returns.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exsum(const ExecSpace& space, const RView& R, const XView& X, MPI_Comm comm,
           const Options& options = {}) {
  Impl::distributed_one_operand_columns<Impl::RoundAccumulator>(
      space, "ExKokkos::mpi::exsum", comm, R, X, options, Impl::MakeSumTerms());
}

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exasum(const ExecSpace& space, const RView& R, const XView& X, MPI_Comm comm,
            const Options& options = {}) {
  Impl::distributed_one_operand_columns<Impl::RoundAccumulator>(
      space, "ExKokkos::mpi::exasum", comm, R, X, options, Impl::MakeAbsTerms());
}

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2(const ExecSpace& space, const RView& R, const XView& X, MPI_Comm comm,
            const Options& options = {}) {
  Impl::distributed_one_operand_columns<Impl::SqrtRoundAccumulator>(
      space, "ExKokkos::mpi::exnrm2", comm, R, X, options, Impl::MakeSquareTerms());
}

template <class ExecSpace, class RView, class XView, class YView,
          typename std::enable_if<
              Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                  Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>() &&
                  (Impl::is_rank2_view<XView>() || Impl::is_rank2_view<YView>()),
              int>::type = 0>
void exdot(const ExecSpace& space, const RView& R, const XView& X, const YView& Y, MPI_Comm comm,
           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::mpi::exdot: X must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::mpi::exdot: X and Y must hold the same value type");
  static_assert(std::is_same<T, typename RView::value_type>::value,
                "ExKokkos::mpi::exdot: R must hold X's value type (and not be const)");
  Impl::distributed_columns_into<Impl::RoundAccumulator>(
      space, "ExKokkos::mpi::exdot", comm, Impl::write_view<ExecSpace>(R),
      Impl::read_view<ExecSpace>(X), Impl::read_view<ExecSpace>(Y), options, Impl::MakeDotTerms());
}

// ... and without the execution space (X's default one).
template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exsum(const RView& R, const XView& X, MPI_Comm comm, const Options& options = {}) {
  exsum(typename XView::execution_space(), R, X, comm, options);
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exasum(const RView& R, const XView& X, MPI_Comm comm, const Options& options = {}) {
  exasum(typename XView::execution_space(), R, X, comm, options);
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2(const RView& R, const XView& X, MPI_Comm comm, const Options& options = {}) {
  exnrm2(typename XView::execution_space(), R, X, comm, options);
}

template <
    class RView, class XView, class YView,
    typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank1or2_view<XView>() &&
                                Impl::is_rank1or2_view<YView>() &&
                                (Impl::is_rank2_view<XView>() || Impl::is_rank2_view<YView>()),
                            int>::type = 0>
void exdot(const RView& R, const XView& X, const YView& Y, MPI_Comm comm,
           const Options& options = {}) {
  exdot(typename XView::execution_space(), R, X, Y, comm, options);
}

}  // namespace mpi
}  // namespace ExKokkos

#endif  // EXKOKKOS_MPI_HPP
