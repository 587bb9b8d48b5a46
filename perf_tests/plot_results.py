#!/usr/bin/env python3
"""Turns Google Benchmark JSON from the ExKokkos perf_tests into PNG plots.

    /usr/bin/python3 perf_tests/plot_results.py results/bench_level1.json [-o results/]

Needs matplotlib (Debian: python3-matplotlib, installed by scripts/install_deps.sh).

One plot per data set: time per call against n for every routine (log-log), and one plot of the
time ratio of each exact routine to its baselines, as paired in the benchmark's ratio table.
Benchmark names are "<routine>/<data>/<n>[/real_time]".
"""
import argparse
import collections
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PAIRS = [("exdot", "KokkosBlas::dot"), ("exdot", "cblas_ddot"), ("exdot", "parallel_reduce_dot"),
         ("exsum", "parallel_reduce_sum"), ("exnrm2", "KokkosBlas::nrm2"),
         ("exaxpby", "KokkosBlas::axpby")]


def load(path):
    with open(path) as f:
        doc = json.load(f)
    times = collections.defaultdict(dict)  # (routine, data) -> {n: ms}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        parts = b["name"].split("/")
        if len(parts) < 3:
            continue
        routine, data, n = parts[0], parts[1], int(parts[2])
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        times[(routine, data)][n] = b["real_time"] * scale
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("-o", "--outdir", default=".")
    args = ap.parse_args()
    times = load(args.json)
    os.makedirs(args.outdir, exist_ok=True)
    datasets = sorted({d for (_, d) in times})
    stem = os.path.splitext(os.path.basename(args.json))[0]
    for data in datasets:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
        for (routine, d), series in sorted(times.items()):
            if d != data:
                continue
            ns = sorted(series)
            ax1.loglog(ns, [series[n] for n in ns], marker="o", label=routine,
                       linestyle="-" if routine.startswith("ex") else "--")
        for exact, base in PAIRS:
            a, b = times.get((exact, data)), times.get((base, data))
            if not a or not b:
                continue
            ns = sorted(set(a) & set(b))
            ax2.loglog(ns, [a[n] / b[n] for n in ns], marker="o", label=f"{exact} / {base}")
        ax1.set(title=f"time per call ({data})", xlabel="n", ylabel="ms")
        ax2.set(title=f"time ratio, exact / ordinary ({data})", xlabel="n", ylabel="ratio")
        ax2.axhline(1.0, color="gray", linewidth=0.8)
        ax1.legend(fontsize=8)
        ax2.legend(fontsize=8)
        fig.tight_layout()
        out = os.path.join(args.outdir, f"{stem}_{data}.png")
        fig.savefig(out, dpi=100)
        print(out)


if __name__ == "__main__":
    main()
