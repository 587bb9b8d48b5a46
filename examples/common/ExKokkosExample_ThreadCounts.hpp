// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Running one example once per OpenMP thread count. Kokkos fixes its thread count at
// initialization, so an example that compares thread counts starts itself again as a child
// process with OMP_NUM_THREADS set, and reads what the child prints on its standard output.
// Shared by the demo and the conjugate-gradient example.
#ifndef EXKOKKOSEXAMPLE_THREADCOUNTS_HPP
#define EXKOKKOSEXAMPLE_THREADCOUNTS_HPP

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

namespace ExKokkosExample {

// The path of this executable. The children are started through a shell, for which
// /proc/self/exe would be the shell, so the parent resolves it once and passes it on.
inline std::string self_executable() {
  char path[4096];
  const ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
  if (len <= 0) return std::string();
  path[len] = '\0';
  return path;
}

// Runs `self args` with `threads` OpenMP (and OpenBLAS) threads and places its standard output in
// `out`. False when the child could not start or exited with a non-zero status.
inline bool run_with_threads(const std::string& self, int threads, const std::string& args,
                             std::string& out) {
  const std::string n = std::to_string(threads);
  const std::string cmd = "OMP_NUM_THREADS=" + n + " OPENBLAS_NUM_THREADS=" + n +
                          " OMP_PROC_BIND=false '" + self + "' " + args +
                          " 2>/dev/null";  // Kokkos warns about oversubscribing the cores
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  out.clear();
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
  return pclose(p) == 0;
}

// The bit pattern of a double, for printing and comparing results exactly.
inline std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline double from_bits(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

}  // namespace ExKokkosExample

#endif  // EXKOKKOSEXAMPLE_THREADCOUNTS_HPP
