// Tuning knobs shared by the ExKokkos kernels. None of them changes a result: every setting gives
// the same bits (the sums are exact, and exact sums do not depend on how they are split). They
// only trade speed. A zero means "the default for this execution space" (ExKokkos_Tuning.hpp).
#ifndef EXKOKKOS_OPTIONS_HPP
#define EXKOKKOS_OPTIONS_HPP

namespace ExKokkos {

struct Options {
  // Doubles per floating-point expansion (per thread): 2, 3, 4, 6 or 8.
  int expansion_size = 0;
  // Stop the expansion's cascade as soon as the carried error is zero (a branch per slot).
  // -1: default, 0: off, 1: on.
  int early_exit = -1;
  // Threads per team, teams per launch, and long accumulators per team (in scratch memory).
  int team_size = 0;
  int league_size = 0;
  int accumulators_per_team = 0;
};

}  // namespace ExKokkos

#endif  // EXKOKKOS_OPTIONS_HPP
