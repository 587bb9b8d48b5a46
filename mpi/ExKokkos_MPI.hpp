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
//
//   ExKokkos::LongAccumulator acc;                                 // a user's own exact sum:
//   Kokkos::parallel_reduce(policy, lambda, ExKokkos::ExactSum<>(acc));
//   ExKokkos::mpi::allreduce(acc, comm);                            // every rank: the global sum
//   double r = acc.round();
//
// All are collective: every rank of comm calls them, with its own (possibly empty) local views,
// and every rank gets the result. Options may differ between ranks (they change no bits).
// Invalid arguments on one rank (mismatched extents, a bad option) do not leave the others
// waiting: that rank still takes part in the exchange, and then every rank throws
// std::invalid_argument (the rank at fault with the local message, naming the routine and the
// extents; the others saying that another rank had invalid arguments).
//
// The exchange is one MPI_Allreduce of num_digits + 1 = 133 words per accumulator, with a
// user-defined commutative operation that adds two accumulators exactly and normalizes at once
// (ExKokkos_PackedAccumulator.hpp has the bound), so no rank count can exhaust the digits'
// headroom and MPI may combine the contributions in any order.
#ifndef EXKOKKOS_MPI_HPP
#define EXKOKKOS_MPI_HPP

#include <ExKokkos_config.hpp>

#if !EXKOKKOS_HAVE_MPI
#error "ExKokkos_MPI.hpp needs MPI: this ExKokkos was configured without it (ExKokkos_ENABLE_MPI)"
#endif

#include <mpi.h>

#include <ExKokkos_Asum.hpp>
#include <ExKokkos_CorrectlyRoundedSqrt.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_LongAccumulator.hpp>
#include <ExKokkos_Nrm2.hpp>
#include <ExKokkos_PackedAccumulator.hpp>
#include <ExKokkos_Sum.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Set in the packed flag word's high half by a rank whose arguments were invalid.
constexpr std::uint64_t packed_invalid_arguments = std::uint64_t(1) << 32;

// The MPI_User_function of the exchange: inout[k] := in[k] + inout[k] for len packed
// accumulators (MPI never splits an element of a derived datatype).
inline void combine_packed_accumulators(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint64_t*>(in);
  auto* b = static_cast<std::uint64_t*>(inout);
  for (int k = 0; k < *len; ++k)
    combine_packed(a + k * PackedAccumulator::num_words, b + k * PackedAccumulator::num_words);
}

inline void check_mpi(int rc, const char* routine, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  std::string message = std::string(routine) + ": " + call + " failed";
  if (MPI_Error_string(rc, text, &length) == MPI_SUCCESS)
    message += std::string(": ") + std::string(text, static_cast<std::size_t>(length));
  throw std::runtime_error(message);
}

// The datatype (one packed accumulator) and the operation, created for one exchange and freed
// after it, so that nothing outlives MPI_Finalize.
class PackedAccumulatorExchange {
 public:
  explicit PackedAccumulatorExchange(const char* routine) : routine_(routine) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) throw std::logic_error(std::string(routine) + ": MPI is not initialized");
    check_mpi(MPI_Type_contiguous(PackedAccumulator::num_words, MPI_UINT64_T, &type_), routine,
              "MPI_Type_contiguous");
    check_mpi(MPI_Type_commit(&type_), routine, "MPI_Type_commit");
    // Commutative: the sum is exact, its normalized form unique, and OR commutes.
    const int rc = MPI_Op_create(&combine_packed_accumulators, 1, &op_);
    if (rc != MPI_SUCCESS) MPI_Type_free(&type_);
    check_mpi(rc, routine, "MPI_Op_create");
  }
  ~PackedAccumulatorExchange() {
    MPI_Op_free(&op_);
    MPI_Type_free(&type_);
  }
  PackedAccumulatorExchange(const PackedAccumulatorExchange&) = delete;
  PackedAccumulatorExchange& operator=(const PackedAccumulatorExchange&) = delete;

  // Every rank's words are replaced by the sum over the ranks of comm.
  void allreduce(std::uint64_t* words, MPI_Comm comm) const {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, words, 1, type_, op_, comm), routine_, "MPI_Allreduce");
  }

 private:
  const char* routine_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

// The shape of every distributed routine: local() gives this rank's exact sum (it may throw
// std::invalid_argument), the sums are added across comm, and finish() rounds the total. A rank
// with invalid arguments contributes an empty sum and the invalid-arguments bit, so that every
// rank completes the collective and then throws.
template <class Local, class Finish>
auto distributed_reduction(const char* routine, MPI_Comm comm, const Local& local,
                           const Finish& finish) -> decltype(finish(LongAccumulator())) {
  std::uint64_t words[PackedAccumulator::num_words];
  std::string local_error;
  try {
    pack(local(), words);
  } catch (const std::invalid_argument& e) {
    local_error = e.what();
    pack(LongAccumulator(), words);
    words[PackedAccumulator::flags_word] |= packed_invalid_arguments;
  }
  PackedAccumulatorExchange(routine).allreduce(words, comm);
  if (!local_error.empty()) throw std::invalid_argument(local_error);
  if (words[PackedAccumulator::flags_word] & packed_invalid_arguments)
    throw std::invalid_argument(std::string(routine) +
                                ": invalid arguments on another rank of the communicator");
  return finish(unpack(words));
}

template <class T>
struct RoundAccumulator {
  T operator()(const LongAccumulator& sum) const { return sum.round<T>(); }
};

// exnrm2's rounding: the correctly rounded square root, as in the single-process exnrm2.
template <class T>
struct SqrtRoundAccumulator {
  T operator()(const LongAccumulator& squares) const { return sqrt_rounded<T>(squares); }
};

}  // namespace Impl

namespace mpi {

// acc := the exact sum of acc over every rank of comm (collective; every rank gets the sum).
inline void allreduce(LongAccumulator& acc, MPI_Comm comm) {
  constexpr const char* routine = "ExKokkos::mpi::allreduce";
  std::uint64_t words[Impl::PackedAccumulator::num_words];
  Impl::pack(acc, words);
  Impl::PackedAccumulatorExchange(routine).allreduce(words, comm);
  acc = Impl::unpack(words);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exsum(const ExecSpace& space, const XView& x, MPI_Comm comm,
                                           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::mpi::exsum: x must hold double or float");
  constexpr const char* routine = "ExKokkos::mpi::exsum";
  return Impl::distributed_reduction(
      routine, comm,
      [&] {
        return Impl::reduce_to_accumulator(space, Impl::SumTerms<XView>{x}, x.extent(0), 1, options,
                                           routine);
      },
      Impl::RoundAccumulator<T>());
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exasum(const ExecSpace& space, const XView& x, MPI_Comm comm,
                                            const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::mpi::exasum: x must hold double or float");
  constexpr const char* routine = "ExKokkos::mpi::exasum";
  return Impl::distributed_reduction(
      routine, comm,
      [&] {
        return Impl::reduce_to_accumulator(space, Impl::AbsTerms<XView>{x}, x.extent(0), 1, options,
                                           routine);
      },
      Impl::RoundAccumulator<T>());
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
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::mpi::exdot: x must hold double or float");
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::mpi::exdot: x and y must hold the same value type");
  constexpr const char* routine = "ExKokkos::mpi::exdot";
  return Impl::distributed_reduction(
      routine, comm,
      [&] {
        Impl::check_same_extent(routine, x, y);
        return Impl::reduce_to_accumulator(space, Impl::dot_terms_t<XView, YView>{x, y},
                                           x.extent(0), 2, options, routine);
      },
      Impl::RoundAccumulator<T>());
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exnrm2(const ExecSpace& space, const XView& x, MPI_Comm comm,
                                            const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::mpi::exnrm2: x must hold double or float");
  constexpr const char* routine = "ExKokkos::mpi::exnrm2";
  return Impl::distributed_reduction(
      routine, comm,
      [&] {
        return Impl::reduce_to_accumulator(space, Impl::square_terms_t<XView>{x}, x.extent(0), 2,
                                           options, routine);
      },
      Impl::SqrtRoundAccumulator<T>());
}

// The forms without an execution space use x's default one.
template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
typename XView::non_const_value_type exsum(const XView& x, MPI_Comm comm,
                                           const Options& options = {}) {
  return exsum(typename XView::execution_space(), x, comm, options);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
typename XView::non_const_value_type exasum(const XView& x, MPI_Comm comm,
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
typename XView::non_const_value_type exnrm2(const XView& x, MPI_Comm comm,
                                            const Options& options = {}) {
  return exnrm2(typename XView::execution_space(), x, comm, options);
}

}  // namespace mpi
}  // namespace ExKokkos

#endif  // EXKOKKOS_MPI_HPP
