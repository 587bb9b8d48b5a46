// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reproducible LU inside your own kernel: one small system per team.
//
// The kernel below (SolveOnePerTeam) is what a user writes: each team copies its matrix into team
// scratch memory, factors it with ExKokkos::TeamGetf2, solves with ExKokkos::TeamGetrs, and writes
// back the factors, the pivots, info and the solution. The program runs it with a team of one
// thread and with the largest team the backend allows, then checks every system against the
// host-level ExKokkos::exgesv on the same data: the solutions, factors, pivots and info must be
// the same bits (a singular system among them keeps its right-hand side, as LAPACK leaves it).
// It prints a short summary and exits non-zero on any difference.
//
//   exkokkos_team_lu [systems] [n]     default: 200 systems of 12 x 12
#include <ExKokkos.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Member = Kokkos::TeamPolicy<Space>::member_type;

struct SolveOnePerTeam {
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> A;  // systems x n x n: the factors on return
  Kokkos::View<int**, Kokkos::LayoutRight, Mem> ipiv;   // systems x n
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> B;   // systems x n: the solutions on return
  Kokkos::View<int*, Mem> info;                         // systems

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const int s = member.league_rank();
    const int n = static_cast<int>(A.extent(1));
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    const auto b = Kokkos::subview(B, s, Kokkos::ALL());
    // The matrix in team scratch memory (the policy asked for team_lu_scratch_size bytes).
    const auto lu = ExKokkos::team_lu_scratch_matrix<double>(member, n, n);
    ExKokkos::team_lu_copy(member, a, lu);
    int r = ExKokkos::TeamGetf2<Member>::invoke(member, lu, p);
    if (r == 0) r = ExKokkos::TeamGetrs<Member>::invoke(member, "N", lu, p, b);
    ExKokkos::team_lu_copy(member, lu, a);
    if (member.team_rank() == 0) info(s) = r;
  }
};

bool same_bits(double x, double y) {
  std::uint64_t u, v;
  std::memcpy(&u, &x, sizeof u);
  std::memcpy(&v, &y, sizeof v);
  return u == v;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int systems = argc > 1 ? std::atoi(argv[1]) : 200;
  const int n = argc > 2 ? std::atoi(argv[2]) : 12;
  if (systems < 1 || n < 1) {
    std::fprintf(stderr, "usage: exkokkos_team_lu [systems >= 1] [n >= 1]\n");
    return 2;
  }

  // The data, on the host: random systems, one of them singular (a zero row).
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(-1, 1);
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> A0("A0", systems, n, n);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> B0("B0", systems, n);
  for (int s = 0; s < systems; ++s)
    for (int i = 0; i < n; ++i) {
      B0(s, i) = u(rng);
      for (int j = 0; j < n; ++j) A0(s, i, j) = u(rng);
    }
  const int singular = systems / 2;
  for (int j = 0; j < n; ++j) A0(singular, n / 2, j) = 0.0;

  // The reference: each system alone through the host-level routine.
  std::vector<std::vector<double>> x_ref(systems), lu_ref(systems);
  std::vector<std::vector<int>> piv_ref(systems);
  std::vector<int> info_ref(systems);
  for (int s = 0; s < systems; ++s) {
    Kokkos::View<double**, Kokkos::LayoutRight, Mem> a("a", n, n);
    Kokkos::View<double*, Mem> x("x", n);
    Kokkos::View<int*, Mem> p("p", n);
    Kokkos::deep_copy(a, Kokkos::subview(A0, s, Kokkos::ALL(), Kokkos::ALL()));
    Kokkos::deep_copy(x, Kokkos::subview(B0, s, Kokkos::ALL()));
    info_ref[s] = ExKokkos::exgesv(Space(), a, p, x).info;
    const auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
    for (int i = 0; i < n; ++i) {
      x_ref[s].push_back(hx(i));
      piv_ref[s].push_back(hp(i));
      for (int j = 0; j < n; ++j) lu_ref[s].push_back(ha(i, j));
    }
  }

  // The user's kernel, with teams of one thread and of the most the backend allows (up to 64).
  SolveOnePerTeam solve{Kokkos::View<double***, Kokkos::LayoutRight, Mem>("A", systems, n, n),
                        Kokkos::View<int**, Kokkos::LayoutRight, Mem>("ipiv", systems, n),
                        Kokkos::View<double**, Kokkos::LayoutRight, Mem>("B", systems, n),
                        Kokkos::View<int*, Mem>("info", systems)};
  const std::size_t scratch = ExKokkos::team_lu_scratch_size<double>(n, n);
  Kokkos::TeamPolicy<Space> probe(systems, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch));
  const int widest = probe.team_size_max(solve, Kokkos::ParallelForTag());
  const int team_sizes[2] = {1, widest < 64 ? widest : 64};
  int mismatches = 0, singular_info = 0;
  bool singular_kept = true;
  for (const int team : team_sizes) {
    Kokkos::deep_copy(solve.A, A0);
    Kokkos::deep_copy(solve.B, B0);
    Kokkos::parallel_for(
        "solve_one_per_team",
        Kokkos::TeamPolicy<Space>(systems, team).set_scratch_size(0, Kokkos::PerTeam(scratch)),
        solve);
    const auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solve.A);
    const auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solve.B);
    const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solve.ipiv);
    const auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solve.info);
    for (int s = 0; s < systems; ++s) {
      bool same = hi(s) == info_ref[s];
      for (int i = 0; i < n; ++i) {
        same = same && same_bits(hb(s, i), x_ref[s][i]) && hp(s, i) == piv_ref[s][i];
        for (int j = 0; j < n; ++j) same = same && same_bits(ha(s, i, j), lu_ref[s][i * n + j]);
      }
      if (!same) {
        if (mismatches < 5)
          std::printf("team size %d, system %d: differs from exgesv (info %d, exgesv's %d)\n", team,
                      s, hi(s), info_ref[s]);
        ++mismatches;
      }
    }
    singular_info = hi(singular);
    for (int i = 0; i < n; ++i)
      singular_kept = singular_kept && same_bits(hb(singular, i), B0(singular, i));
    std::printf("team size %2d: %d systems of %d x %d factored and solved in the kernel\n", team,
                systems, n, n);
  }
  std::printf("system %d is singular: info %d (exgesv: %d), its right-hand side %s\n", singular,
              singular_info, info_ref[singular], singular_kept ? "kept" : "CHANGED");
  if (mismatches != 0 || singular_info <= 0 || !singular_kept) {
    std::printf("FAILED: %d systems differ from exgesv\n", mismatches);
    return 1;
  }
  std::printf("OK: solutions, factors, pivots and info equal exgesv's bit for bit on %s\n",
              Space::name());
  return 0;
}
