// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos: exact (correctly rounded) and bitwise reproducible BLAS and LAPACK kernels for Kokkos.
// The umbrella header: include this, link ExKokkos::exkokkos.
#ifndef EXKOKKOS_HPP
#define EXKOKKOS_HPP

#include <ExKokkos_config.hpp>

#include "ExKokkos_Compat.hpp"
#include "ExKokkos_ErrorFreeTransforms.hpp"
#include "ExKokkos_Expansion.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_LazyAccumulator.hpp"
#include "ExKokkos_TeamAccumulator.hpp"
#include "ExKokkos_LeagueAccumulator.hpp"
#include "ExKokkos_CorrectlyRoundedSqrt.hpp"
#include "ExKokkos_RoundedAxpby.hpp"
#include "ExKokkos_RoundedUpdate.hpp"
#include "ExKokkos_RoundedMult.hpp"
#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_ExactSumReducer.hpp"
#include "ExKokkos_PackedAccumulator.hpp"

// BLAS level 1
#include "ExKokkos_Asum.hpp"
#include "ExKokkos_Axpby.hpp"
#include "ExKokkos_Dot.hpp"
#include "ExKokkos_Nrm2.hpp"
#include "ExKokkos_Scal.hpp"
#include "ExKokkos_Sum.hpp"
#include "ExKokkos_Nrm2Squared.hpp"
#include "ExKokkos_Nrminf.hpp"
#include "ExKokkos_Iamax.hpp"
#include "ExKokkos_Abs.hpp"
#include "ExKokkos_Fill.hpp"
#include "ExKokkos_Reciprocal.hpp"
#include "ExKokkos_Update.hpp"
#include "ExKokkos_Mult.hpp"
#include "ExKokkos_ScaledSumRounding.hpp"
#include "ExKokkos_Gemv.hpp"
#include "ExKokkos_Trsv.hpp"
#include "ExKokkos_Ger.hpp"
#include "ExKokkos_Syr.hpp"
#include "ExKokkos_Syr2.hpp"
#include "ExKokkos_Gemm.hpp"
#include "ExKokkos_Trsm.hpp"
#include "ExKokkos_Trmm.hpp"
#include "ExKokkos_TeamGemv.hpp"
#include "ExKokkos_TeamLevel1.hpp"
#include "ExKokkos_Getf2.hpp"
#include "ExKokkos_Getrf.hpp"
#include "ExKokkos_Getrs.hpp"
#include "ExKokkos_TeamLU.hpp"

// Exact reductions across the ranks of an MPI communicator, when ExKokkos was configured with MPI.
#if EXKOKKOS_HAVE_MPI
#include "ExKokkos_MPI.hpp"
#endif

// The instantiations the prebuilt library holds, when ExKokkos was configured with it.
#if EXKOKKOS_ENABLE_ETI
#include <ExKokkos_ETI.hpp>
#endif

#endif  // EXKOKKOS_HPP
