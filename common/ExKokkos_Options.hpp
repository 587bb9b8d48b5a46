// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Options shared by the ExKokkos kernels. All but one are tuning knobs that trade speed only:
// every setting of them gives the same bits (the sums are exact, and exact sums do not depend on
// how they are split). The exception is refinement_steps, which changes extrsv's and exgesv's
// results (towards the correctly rounded solution); the result of a given setting is still the
// same on every backend. A zero means "the default for this execution space"
// (common/impl/ExKokkos_Tuning_impl.hpp; docs/options.md).
#ifndef EXKOKKOS_OPTIONS_HPP
#define EXKOKKOS_OPTIONS_HPP

namespace ExKokkos {

// How a matrix routine (exgemv, exgemm, exgetf2) maps its work onto threads. Every schedule gives
// the same bits. On the host, exgemv's and extrsv's team schedules are compiled only with
// EXKOKKOS_ALL_KERNEL_VARIANTS; otherwise they run as automatic (docs/options.md, "Compiled kernel
// variants").
enum class Schedule : int {
  automatic,        // by backend and layout (host: the lanes that read A contiguously)
  output_lanes,     // host: one thread per block of 32 outputs, vectorized across outputs
                    // (exgetf2: 8 or 16 entries of a column or row side by side, left-looking)
  inner_lanes,      // host: one thread per output, vectorized along its dot product
  team_per_output,  // any backend: a team per output, its threads striding the dot product
  tiles,            // exgemm, any backend (the default on devices): a team per tile of C, panels
                    // of op(A) and op(B) in scratch memory, an expansion per element in registers
  output_block,     // exgemv, any backend (the default on devices): a team per block of outputs,
                    // a group of its threads per output, neighbouring threads reading
                    // neighbouring elements of A
  ozaki,            // exgemm, any backend: error-free splitting of A and B into slices whose
                    // products an ordinary GEMM computes exactly (Kokkos Kernels' where available);
                    // data that cannot be split (NaN, inf, too wide a range) use the default
  trailing_update,  // exgetf2, host, double: every entry's compensated sum kept and updated
                    // right-looking, one core per matrix (the host default while its workspace,
                    // 24 bytes an entry, fits in scratch memory; output_lanes asks for the
                    // left-looking lanes)
};

struct Options {
  // Doubles per floating-point expansion (per thread): 2, 3, 4, 6 or 8. A size this build does
  // not compile runs as the nearest compiled one (docs/options.md, "Compiled kernel variants").
  int expansion_size = 0;
  // Stop the expansion's cascade as soon as the carried error is zero (a branch per slot).
  // -1: default, 0: off, 1: on.
  int early_exit = -1;
  // Threads per team, teams per launch, and long accumulators per team (in scratch memory).
  int team_size = 0;
  int league_size = 0;
  int accumulators_per_team = 0;
  // Matrix routines only. extrsv: its panel products, and with team_per_output or output_block,
  // a team per diagonal block on the host too where compiled (one thread by default there; a team
  // on devices).
  Schedule schedule = Schedule::automatic;
  // extrsv: rows per diagonal block; exgemm's tiles schedule: the depth of the panels of op(A)
  // and op(B) staged in scratch memory; exgetrf: columns per panel (0: default).
  int block_size = 0;
  // extrsv: at most this many steps of iterative refinement (0: none). Unlike the knobs above,
  // this one changes results (towards the correctly rounded solution); the result of a given
  // setting is still the same everywhere.
  int refinement_steps = 0;
  // Batched exgetf2: factor each matrix in a copy in team scratch memory. -1: default (devices,
  // when the copy fits in 48 KiB), 0: in place, 1: in scratch where it fits.
  int stage_in_scratch = -1;
};

}  // namespace ExKokkos

#endif  // EXKOKKOS_OPTIONS_HPP
