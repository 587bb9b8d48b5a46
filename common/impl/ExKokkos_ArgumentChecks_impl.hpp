// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The argument checks every routine shares, in KokkosBlas' style: each throws
// std::invalid_argument naming the routine and the values, and is called before anything is
// written.
#ifndef EXKOKKOS_ARGUMENTCHECKS_IMPL_HPP
#define EXKOKKOS_ARGUMENTCHECKS_IMPL_HPP

#include <cctype>
#include <cstddef>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ExKokkos {
namespace Impl {

inline void check_option(bool ok, const char* routine, const std::string& what) {
  if (!ok) throw std::invalid_argument(std::string(routine) + ": invalid option " + what);
}

template <class XView, class YView>
void check_same_extent(const char* routine, const XView& x, const YView& y) {
  if (x.extent(0) != y.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": x and y must have the same extent, but x.extent(0) = " << x.extent(0)
        << " and y.extent(0) = " << y.extent(0);
    throw std::invalid_argument(msg.str());
  }
}

// An output written while other operands are read, by other threads: overlapping memory would
// make the result depend on the schedule, so it is rejected (BLAS leaves it undefined). The span
// test also rejects interleaved views that share no element.
template <class OutView, class OtherView>
void check_no_overlap(const char* routine, const char* out_name, const OutView& out,
                      const char* name, const OtherView& X) {
  if (out.span() == 0 || X.span() == 0) return;
  const char* o0 = reinterpret_cast<const char*>(out.data());
  const char* o1 = o0 + out.span() * sizeof(typename OutView::value_type);
  const char* x0 = reinterpret_cast<const char*>(X.data());
  const char* x1 = x0 + X.span() * sizeof(typename OtherView::value_type);
  if (o0 < x1 && x0 < o1)
    throw std::invalid_argument(std::string(routine) + ": " + out_name + " must not overlap " +
                                name);
}

// The LU family's kernels index rows, columns and systems with int (its pivots are int, as
// LAPACK's and Kokkos Kernels'): an extent of 2^31 or more is refused rather than truncated.
inline void check_int_extent(const char* routine, const char* what, std::size_t extent) {
  if (extent > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    std::ostringstream msg;
    msg << routine << ": " << what << " = " << extent << " does not fit the int indices of the LU "
        << "routines (at most " << std::numeric_limits<int>::max() << ")";
    throw std::invalid_argument(msg.str());
  }
}

// A BLAS character argument (its first character, either case) among `allowed`; anything else
// throws std::invalid_argument naming the routine and the argument.
inline char parse_flag(const char* routine, const char* what, const char flag[],
                       const char* allowed) {
  const char c = flag == nullptr ? '\0' : static_cast<char>(std::toupper(flag[0]));
  for (const char* a = allowed; *a != '\0'; ++a)
    if (c == *a) return c;
  throw std::invalid_argument(std::string(routine) + ": " + what + " must be one of \"" + allowed +
                              "\", got \"" +
                              (flag == nullptr ? std::string("(null)") : std::string(flag)) + "\"");
}

// trans "N" or "T"/"C"/"H" ("C" and "H" are the conjugate transpose, "T" for real values): true
// when transposed.
inline bool parse_trans(const char* routine, const char* what, const char trans[]) {
  return parse_flag(routine, what, trans, "NTCH") != 'N';
}
inline bool parse_trans(const char* routine, const char trans[]) {
  return parse_trans(routine, "trans", trans);
}

// Whether an accepted trans asks for the conjugate transpose ("C" or "H"), which differs from "T"
// only for complex values.
inline bool parse_conjugate(const char trans[]) {
  const int c = trans == nullptr ? 0 : std::toupper(static_cast<unsigned char>(trans[0]));
  return c == 'C' || c == 'H';
}

// The mode characters of the triangular routines: extrsv's uplo, trans and diag, and the side of
// extrsm and extrmm (true when A is on the left of B). Parsed in this order, each throwing as
// parse_flag does.
struct TriangularModes {
  bool left = true;
  bool lower = true;
  bool transposed = false;
  bool conjugated = false;  // trans "C" or "H" (for complex values; "T" for real ones)
  bool unit = false;
};

inline TriangularModes parse_triangular_modes(const char* routine, const char uplo[],
                                              const char trans[], const char diag[]) {
  TriangularModes m;
  m.lower = parse_flag(routine, "uplo", uplo, "LU") == 'L';
  m.transposed = parse_trans(routine, trans);
  m.conjugated = parse_conjugate(trans);
  m.unit = parse_flag(routine, "diag", diag, "NU") == 'U';
  return m;
}

inline TriangularModes parse_triangular_modes(const char* routine, const char side[],
                                              const char uplo[], const char trans[],
                                              const char diag[]) {
  const bool left = parse_flag(routine, "side", side, "LR") == 'L';
  TriangularModes m = parse_triangular_modes(routine, uplo, trans, diag);
  m.left = left;
  return m;
}

// extrsm and extrmm: a square A whose order is B's rows (side L) or columns (side R).
template <class AView, class BView>
void check_triangular_extents(const char* routine, bool left, const AView& A, const BView& B) {
  if (A.extent(0) != A.extent(1) || A.extent(0) != B.extent(left ? 0 : 1)) {
    std::ostringstream msg;
    msg << routine << ": A must be square and its order match B's " << (left ? "rows" : "columns")
        << " (side " << (left ? "L" : "R") << "), but A is " << A.extent(0) << " x " << A.extent(1)
        << " and B is " << B.extent(0) << " x " << B.extent(1);
    throw std::invalid_argument(msg.str());
  }
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ARGUMENTCHECKS_IMPL_HPP
