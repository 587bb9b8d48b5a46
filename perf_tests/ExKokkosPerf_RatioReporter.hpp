// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Google Benchmark console reporter that also prints, at the end, the time ratio of every
// ExKokkos benchmark to each of its ordinary counterparts measured in the same process.
//
// Naming convention: "<routine>/<data>/<size>" (size: n, or m x n as "<m>x<n>"). An exact routine's
// name starts with "ex"; its baselines are registered with the same "/<data>/<n>" suffix and listed
// in `pairs` as {exact routine, baseline routine}.
#ifndef EXKOKKOSPERF_RATIOREPORTER_HPP
#define EXKOKKOSPERF_RATIOREPORTER_HPP

#include <ExKokkos_Compat.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if defined(__GNUC__)
// OpenBLAS' name for the kernels it chose, where the process runs OpenBLAS: a weak reference,
// null with another BLAS or none.
extern "C" char* openblas_get_corename() __attribute__((weak));
#endif

namespace ExKokkosPerf {

// Records OpenBLAS' kernel set in the context, and warns when it is "Prescott": OpenBLAS' generic
// kernels, which it takes on a processor it does not recognize (a virtual machine's, say), two to
// six times slower at level 3 than the processor's own (docs/performance.md, "OpenBLAS on this
// machine"). OPENBLAS_CORETYPE names the right ones; scripts/perf_report.sh sets it.
inline void record_openblas_core() {
#if defined(__GNUC__)
  if (openblas_get_corename == nullptr) return;
  const char* core = openblas_get_corename();
  if (core == nullptr) return;
  benchmark::AddCustomContext("openblas_core", core);
  if (std::string(core) == "Prescott")
    std::fprintf(stderr,
                 "warning: OpenBLAS runs its generic Prescott kernels here, so the OpenBLAS "
                 "baselines are slower than this processor allows: set OPENBLAS_CORETYPE (for "
                 "example SkylakeX or Haswell), as scripts/perf_report.sh does.\n");
#endif
}

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Also records the pairs, the execution space and its concurrency in the context of every
  // output (the JSON of --benchmark_out included), for perf_tests/report.py and plot_results.py:
  // "exkokkos_pairs" is "exact=baseline;exact=baseline;...". Construct it after Kokkos and
  // before RunSpecifiedBenchmarks.
  explicit RatioReporter(std::vector<std::pair<std::string, std::string>> pairs)
      : pairs_(std::move(pairs)) {
    std::string list;
    for (const auto& p : pairs_) list += (list.empty() ? "" : ";") + p.first + "=" + p.second;
    benchmark::AddCustomContext("exkokkos_pairs", list);
    using Space = Kokkos::DefaultExecutionSpace;
    benchmark::AddCustomContext("kokkos_execution_space", Space::name());
    benchmark::AddCustomContext("kokkos_concurrency",
                                std::to_string(ExKokkos::Impl::compat::concurrency(Space())));
    record_openblas_core();
  }

  // With --benchmark_repetitions the median of the repetitions is used, otherwise the one run.
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const std::string name = r.run_name.str();
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (!median && (r.run_type != Run::RT_Iteration || medians_.count(name) != 0)) continue;
      if (median) medians_.insert(name);
      times_[name] = r.GetAdjustedRealTime();  // in the run's time unit
      units_[name] = benchmark::GetTimeUnitString(r.time_unit);
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%-28s %-28s %-22s %12s %12s %8s\n", "exact", "baseline", "data/n", "exact",
                "baseline", "ratio");
    for (const auto& pair : pairs_) {
      for (const auto& t : times_) {
        const std::string& name = t.first;
        if (name.compare(0, pair.first.size() + 1, pair.first + "/") != 0) continue;
        const std::string suffix = name.substr(pair.first.size());
        const auto base = times_.find(pair.second + suffix);
        if (base == times_.end()) continue;
        std::printf("%-28s %-28s %-22s %9.3f %-2s %9.3f %-2s %8.2f\n", pair.first.c_str(),
                    pair.second.c_str(), suffix.c_str() + 1, t.second, units_[name].c_str(),
                    base->second, units_[base->first].c_str(), t.second / base->second);
      }
    }
    std::fflush(stdout);
  }

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
  std::map<std::string, double> times_;
  std::map<std::string, std::string> units_;
  std::set<std::string> medians_;
};

}  // namespace ExKokkosPerf

#endif  // EXKOKKOSPERF_RATIOREPORTER_HPP
