#!/usr/bin/env python3
"""Puts the ratio columns of bench/run.sh tables side by side.

    python3 bench/compare.py bench.md bench-head.md [...]

Each argument is a table that bench/run.sh wrote; rows match on function,
shape and batch. The last lines give each table's geometric means.
"""
import math
import re
import sys

ROW = re.compile(r"^\| (\S+) \| (\d+ x \d+ x \d+) \| (\w+) \| (\d+) \| "
                 r"([\d.]+) \| ([\d.]+) \| ([\d.]+) \| \S+ \| (\w+) \|$")


def read(path):
    rows = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line.strip())
            if m:
                key = (m[1], m[2], m[3], m[4])
                rows[key] = (float(m[5]), float(m[7]), m[8])
    return rows


def main(paths):
    tables = [read(p) for p in paths]
    keys = list(tables[0])
    names = [p.rsplit("/", 1)[-1] for p in paths]
    print("| function | shape | layout | batch | " +
          " | ".join(f"{n} TFLOP/s, ratio" for n in names) + " |")
    for key in keys:
        cells = []
        for t in tables:
            if key in t:
                tf, ratio, check = t[key]
                cells.append(f"{tf:.2f}, {ratio:.3f}" +
                             ("" if check == "PASS" else f" {check}"))
            else:
                cells.append("-")
        print("| " + " | ".join(key) + " | " + " | ".join(cells) + " |")
    for prefix in ("sgemm", "dgemm"):
        means = []
        for t in tables:
            r = [v[1] for k, v in t.items() if k[0].startswith(prefix)]
            means.append(f"{math.exp(sum(map(math.log, r)) / len(r)):.3f}"
                         if r else "-")
        print(f"geomean {prefix}: " + " / ".join(means))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
