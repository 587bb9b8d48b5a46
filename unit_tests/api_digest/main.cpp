// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A digest of the result bits of a fixed set of calls across the whole public API, on every
// enabled backend (Serial, OpenMP, and Cuda in a CUDA build: every input is made in the space's
// memory and every result copied back before it is digested): one line per routine and backend
// ("<routine> <space> <16 hex digits>"), then one line per routine with the digest it has on every
// backend. Exits non-zero when two backends disagree.
//
// Used to show that a change of the library's structure leaves every result's bits as they were:
// run it before and after and compare the output (scripts/api_digest.sh). The inputs come from a
// fixed integer generator (splitmix64), so they are the same on every machine and build.
#include "ApiDigest.hpp"

#include <cstdio>

namespace {

template <class Space>
ApiDigest::Results run(const Space& space) {
  ApiDigest::Results out;
  ApiDigest::level1(space, out);
  ApiDigest::level2(space, out);
  ApiDigest::level3(space, out);
  ApiDigest::lapack(space, out);
  ApiDigest::accumulators(space, out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    std::vector<std::pair<std::string, ApiDigest::Results>> all;
#ifdef KOKKOS_ENABLE_SERIAL
    all.emplace_back("Serial", run(Kokkos::Serial()));
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    all.emplace_back("OpenMP", run(Kokkos::OpenMP()));
#endif
#ifdef KOKKOS_ENABLE_CUDA
    all.emplace_back("Cuda", run(Kokkos::Cuda()));
#endif
    for (const auto& [space, results] : all)
      for (const auto& [name, d] : results)
        std::printf("%-44s %-7s %016llx\n", name.c_str(), space.c_str(),
                    static_cast<unsigned long long>(d.h));
    // The digest every backend agrees on, or a mismatch.
    for (const auto& [name, d] : all.front().second) {
      bool same = true;
      for (const auto& other : all) same = same && other.second.at(name).h == d.h;
      if (same) {
        std::printf("%-44s all     %016llx\n", name.c_str(), static_cast<unsigned long long>(d.h));
      } else {
        std::printf("%-44s MISMATCH between backends\n", name.c_str());
        status = 1;
      }
    }
  }
  Kokkos::finalize();
  return status;
}
