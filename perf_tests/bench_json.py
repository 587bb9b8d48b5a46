# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reading the Google Benchmark JSON of the ExKokkos perf_tests, shared by plot_results.py and
report.py.

Benchmark names are "<routine>/<data>/<size>[/real_time]" (ExKokkosPerf_RatioReporter.hpp); the
pairs of an exact routine and its ordinary counterparts are in the context entry
"exkokkos_pairs" as "exact=baseline;exact=baseline;...".
"""
import collections
import json
import re

_UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def size_key(size):
    """Sort key for a size "n" or "<m>x<n>": by element count, then by the text."""
    count = 1
    for part in size.split("x"):
        count *= int(part) if part.isdigit() else 0
    return (count, size)


def elements(size):
    return size_key(size)[0]


def parse_name(name):
    """(routine, data, size) of a benchmark name, or None if it does not follow the convention."""
    # Google Benchmark appends the run's own settings (iterations:20, real_time, ...) to the name.
    parts = [p for p in name.split("/")
             if p != "real_time" and not re.fullmatch(r"[a-z_]+:[\w.]+", p)]
    # routine/data/size, where the data may have parts of its own (exgemv/N/uniform/4096x4096).
    if len(parts) < 3 or not re.fullmatch(r"\d+(x\d+)*", parts[-1]):
        return None
    return parts[0], "/".join(parts[1:-1]), parts[-1]


def load(path):
    """{"times": {(routine, data): {size: ms}}, "pairs": [(exact, baseline)], "context": {...}}"""
    with open(path) as f:
        doc = json.load(f)
    times = collections.defaultdict(dict)
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        parsed = parse_name(b["name"])
        if parsed is None:
            continue
        routine, data, size = parsed
        times[(routine, data)][size] = b["real_time"] * _UNIT_TO_MS[b.get("time_unit", "ns")]
    context = doc.get("context", {})
    pairs = []
    for item in context.get("exkokkos_pairs", "").split(";"):
        if "=" in item:
            pair = tuple(item.split("=", 1))
            if pair not in pairs:  # a pair registered by several benchmarks is reported once
                pairs.append(pair)
    return {"times": dict(times), "pairs": pairs, "context": context}
