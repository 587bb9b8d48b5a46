// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The exchange behind ExKokkos::mpi: each rank's exact sums, packed
// (ExKokkos_PackedAccumulator.hpp), are added across the ranks of a communicator by one
// MPI_Allreduce with a user-defined commutative operation, and every rank rounds the totals itself.
//
// Why the totals do not depend on the ranks: the operation adds two packed accumulators exactly
// and normalizes at once (the packed form's bound), so no rank count exhausts the digits'
// headroom, and the normalized form of an exact sum is unique, so any reduction tree MPI chooses
// gives the same words; the NaN/inf flags are ORed, which commutes as well.
//
// Why invalid arguments cannot leave ranks waiting: a rank whose local step throws
// std::invalid_argument still takes part in every collective, contributing empty sums and a flag
// bit, and then every rank throws (the rank at fault with its own message). A multivector call
// first agrees on the number of columns (one small MPI_Allreduce of three integers), since ranks
// that disagree on it would pass MPI_Allreduce different counts, which MPI leaves undefined.
#ifndef EXKOKKOS_DISTRIBUTEDREDUCTION_IMPL_HPP
#define EXKOKKOS_DISTRIBUTEDREDUCTION_IMPL_HPP

#include <ExKokkos_config.hpp>

#include <mpi.h>

#include <ExKokkos_LongAccumulator.hpp>
#include <ExKokkos_PackedAccumulator.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

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

  // Every rank's `count` packed accumulators are replaced by their sums over the ranks of comm
  // (every rank passes the same count).
  void allreduce(std::uint64_t* words, int count, MPI_Comm comm) const {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, words, count, type_, op_, comm), routine_,
              "MPI_Allreduce");
  }

 private:
  const char* routine_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

// Packs local() (this rank's exact sum) into words; if it throws std::invalid_argument, packs an
// empty sum with the invalid-arguments bit instead and keeps the message in local_error.
template <class Local>
void pack_local_sum(const Local& local, std::uint64_t* words, std::string& local_error) {
  try {
    pack(local(), words);
  } catch (const std::invalid_argument& e) {
    if (local_error.empty()) local_error = e.what();
    pack(LongAccumulator(), words);
    words[PackedAccumulator::flags_word] |= packed_invalid_arguments;
  }
}

// Adds `count` packed sums across comm, then throws std::invalid_argument on every rank if any
// rank's local step failed (the rank at fault with its own message).
inline void exchange_packed_sums(const char* routine, MPI_Comm comm, std::uint64_t* words,
                                 int count, const std::string& local_error) {
  PackedAccumulatorExchange(routine).allreduce(words, count, comm);
  if (!local_error.empty()) throw std::invalid_argument(local_error);
  for (int k = 0; k < count; ++k)
    if (words[k * PackedAccumulator::num_words + PackedAccumulator::flags_word] &
        packed_invalid_arguments)
      throw std::invalid_argument(std::string(routine) +
                                  ": invalid arguments on another rank of the communicator");
}

// The shape of every distributed reduction to Parts values (two for a complex result, its real
// and imaginary parts): local(p) gives this rank's exact sum of part p (it may throw
// std::invalid_argument), the Parts sums are added across comm in one exchange, and finish()
// rounds each total.
template <int Parts, class Local, class Finish>
auto distributed_parts_reduction(const char* routine, MPI_Comm comm, const Local& local,
                                 const Finish& finish)
    -> std::array<decltype(finish(LongAccumulator())), Parts> {
  std::uint64_t words[Parts * PackedAccumulator::num_words];
  std::string local_error;
  for (int p = 0; p < Parts; ++p)
    pack_local_sum([&] { return local(p); }, words + p * PackedAccumulator::num_words, local_error);
  exchange_packed_sums(routine, comm, words, Parts, local_error);
  std::array<decltype(finish(LongAccumulator())), Parts> totals;
  for (int p = 0; p < Parts; ++p)
    totals[p] = finish(unpack(words + p * PackedAccumulator::num_words));
  return totals;
}

// One value: local() gives this rank's exact sum.
template <class Local, class Finish>
auto distributed_reduction(const char* routine, MPI_Comm comm, const Local& local,
                           const Finish& finish) -> decltype(finish(LongAccumulator())) {
  return distributed_parts_reduction<1>(
      routine, comm, [&](int) { return local(); }, finish)[0];
}

// The number of columns every rank of comm passed, after check() (this rank's argument checks,
// which return its column count or throw std::invalid_argument): one MPI_Allreduce of three
// integers, after which every rank throws if any rank's checks failed or the ranks' counts differ.
template <class Check>
int agreed_columns(const char* routine, MPI_Comm comm, const Check& check) {
  std::string local_error;
  std::int64_t columns = 0;
  try {
    columns = static_cast<std::int64_t>(check());
  } catch (const std::invalid_argument& e) {
    local_error = e.what();
  }
  constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min();
  const bool failed = !local_error.empty();
  // Maximum of the counts, maximum of their negations (minus the minimum), any failure.
  std::int64_t agreement[3] = {failed ? none : columns, failed ? none : -columns, failed ? 1 : 0};
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, agreement, 3, MPI_INT64_T, MPI_MAX, comm), routine,
            "MPI_Allreduce");
  if (failed) throw std::invalid_argument(local_error);
  if (agreement[2] != 0)
    throw std::invalid_argument(std::string(routine) +
                                ": invalid arguments on another rank of the communicator");
  if (agreement[0] != -agreement[1] || agreement[0] > std::numeric_limits<int>::max()) {
    std::ostringstream msg;
    msg << routine << ": every rank must pass the same number of columns, but this rank has "
        << columns << " and the ranks have from " << -agreement[1] << " to " << agreement[0];
    throw std::invalid_argument(msg.str());
  }
  return static_cast<int>(columns);
}

// The multivector shape: check() as in agreed_columns, local(j, p) this rank's exact sum for part
// p of column j (Parts: 1, or 2 for complex results), finish() the rounding of a total; returns
// every column's rounded totals, the same on every rank. Two collectives: the agreement on the
// column count, and one MPI_Allreduce of every column's packed sums.
template <int Parts, class Check, class Local, class Finish>
auto distributed_column_reductions(const char* routine, MPI_Comm comm, const Check& check,
                                   const Local& local, const Finish& finish)
    -> std::vector<std::array<decltype(finish(LongAccumulator())), Parts>> {
  const int columns = agreed_columns(routine, comm, check);
  constexpr int words_per_column = Parts * PackedAccumulator::num_words;
  std::vector<std::uint64_t> words(static_cast<std::size_t>(columns) * words_per_column);
  std::string local_error;
  for (int j = 0; j < columns; ++j)
    for (int p = 0; p < Parts; ++p)
      pack_local_sum([&] { return local(j, p); },
                     words.data() + j * words_per_column + p * PackedAccumulator::num_words,
                     local_error);
  exchange_packed_sums(routine, comm, words.data(), columns * Parts, local_error);
  std::vector<std::array<decltype(finish(LongAccumulator())), Parts>> totals(columns);
  for (int j = 0; j < columns; ++j)
    for (int p = 0; p < Parts; ++p)
      totals[j][p] =
          finish(unpack(words.data() + j * words_per_column + p * PackedAccumulator::num_words));
  return totals;
}

template <class T>
struct RoundAccumulator {
  T operator()(const LongAccumulator& sum) const { return sum.round<T>(); }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_DISTRIBUTEDREDUCTION_IMPL_HPP
