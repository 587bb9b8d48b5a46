#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Turns Google Benchmark JSON from the ExKokkos perf_tests into PNG plots.

    /usr/bin/python3 perf_tests/plot_results.py results/bench_level1.json [-o results/]

Needs matplotlib (Debian: python3-matplotlib, installed by scripts/install_deps.sh).

One figure per data set: time per call against size for every routine, and the time ratio of
each exact routine to its baselines. The pairs come from the benchmark's own ratio table (the
"exkokkos_pairs" context entry, ExKokkosPerf_RatioReporter.hpp). Benchmark names are
"<routine>/<data>/<size>[/real_time]" (the data may have parts of its own, "N/uniform"), the size
n or "<m>x<n>": sizes that are all plain numbers are plotted on a log-log scale, others (matrix
shapes) as grouped bars.
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import bench_json  # noqa: E402


def plot_dataset(ax1, ax2, data, times, pairs):
    series = {r: s for (r, d), s in sorted(times.items()) if d == data}
    sizes = sorted({n for s in series.values() for n in s}, key=bench_json.size_key)
    numeric = all(n.isdigit() for n in sizes)
    ratios = []
    for exact, base in pairs:
        a, b = series.get(exact), series.get(base)
        if a and b:
            common = [n for n in sizes if n in a and n in b]
            ratios.append((f"{exact} / {base}", {n: a[n] / b[n] for n in common}))
    if numeric:
        for routine, s in series.items():
            ns = [n for n in sizes if n in s]
            ax1.loglog([int(n) for n in ns], [s[n] for n in ns], marker="o", label=routine,
                       linestyle="-" if routine.startswith("ex") else "--")
        for label, r in ratios:
            ns = [n for n in sizes if n in r]
            ax2.loglog([int(n) for n in ns], [r[n] for n in ns], marker="o", label=label)
        ax1.set_xlabel("n")
        ax2.set_xlabel("n")
    else:
        for ax, groups in ((ax1, list(series.items())), (ax2, ratios)):
            width = 0.8 / max(1, len(groups))
            for k, (label, s) in enumerate(groups):
                xs = [i + k * width for i, n in enumerate(sizes) if n in s]
                ax.bar(xs, [s[n] for n in sizes if n in s], width, label=label)
            ax.set_xticks([i + 0.4 - width / 2 for i in range(len(sizes))])
            ax.set_xticklabels(sizes)
            ax.set_yscale("log")
            ax.set_xlabel("size")
    ax1.set(title=f"time per call ({data})", ylabel="ms")
    ax2.set(title=f"time ratio, exact / ordinary ({data})", ylabel="ratio")
    ax2.axhline(1.0, color="gray", linewidth=0.8)
    ax1.legend(fontsize=8)
    if ratios:
        ax2.legend(fontsize=8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("-o", "--outdir", default=".")
    args = ap.parse_args()
    doc = bench_json.load(args.json)
    times, pairs = doc["times"], doc["pairs"]
    os.makedirs(args.outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.json))[0]
    for data in sorted({d for (_, d) in times}):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
        plot_dataset(ax1, ax2, data, times, pairs)
        fig.tight_layout()
        out = os.path.join(args.outdir, f"{stem}_{data.replace('/', '_')}.png")
        fig.savefig(out, dpi=80)
        plt.close(fig)
        print(out)


if __name__ == "__main__":
    main()
