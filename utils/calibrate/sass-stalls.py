#!/usr/bin/env python3
"""Where a kernel's warps stall, per SASS instruction of its main loop.

Reads the sass-NAME.csv that utils/calibrate/sass-profile.sh writes (ncu's
source page: one row per SASS instruction with its warp-stall samples by
reason) and prints, for the hot loop (instructions executed at least half as often
as the most executed one):
  - its opcode mix;
  - each stall reason's share of the loop's samples;
  - with --lines, every hot instruction with its samples and top reasons,
    or with --over N only those where one reason has more than N samples.

Usage: sass-stalls.py FILE.csv [--lines | --over N]
"""

import argparse
import collections
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--lines", action="store_true")
    parser.add_argument("--over", type=float)
    args = parser.parse_args()

    rows = list(csv.reader(open(args.csv)))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    col = {name: i for i, name in enumerate(rows[head])}
    reasons = [n for n in rows[head] if n.startswith("stall_") and "Not Issued" not in n]
    data = [r for r in rows[head + 1:] if len(r) == len(rows[head])]
    executed = lambda r: number(r[col["Instructions Executed"]])
    most = max(executed(r) for r in data)
    hot = [r for r in data if executed(r) >= 0.5 * most]

    ops = collections.Counter()
    stalls = collections.Counter()
    for r in hot:
        words = r[col["Source"]].split()
        op = words[1] if words[0].startswith("@") else words[0]
        ops[op.split(".")[0]] += 1
        for s in reasons:
            stalls[s] += number(r[col[s]])
    total = sum(stalls.values()) or 1
    print("%s: %d hot instructions, each run %d times" % (args.csv, len(hot), most))
    print("  " + ", ".join("%s %d" % o for o in ops.most_common()))
    print("  stalls: " + ", ".join("%s %.1f%%" % (s[6:], 100 * v / total)
                                   for s, v in stalls.most_common(8)))
    if not (args.lines or args.over):
        return 0
    for r in hot:
        top = sorted(((number(r[col[s]]), s[6:]) for s in reasons), reverse=True)[:3]
        if args.over and top[0][0] <= args.over:
            continue
        print("%s %-58s %7d  %s" % (
            r[col["Address"]][-5:], r[col["Source"]][:58],
            number(r[col["Warp Stall Sampling (All Samples)"]]),
            " ".join("%s:%d" % (n, v) for v, n in top if v > 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
