#!/usr/bin/env python3
"""Checks what a tuning program wrote (test/gpu/run.sh's tune step).

Usage: tune_check.py DB.csv TUNE.cu

The program (gemm-opt --emit=tune on several problems of one nest) must
have checked every choice, and each problem must have timed the kernel
that won every other problem (docs/tuning.md): the cases of TUNE.cu list
what each problem times first, and where another problem's winner is not
on that list the cross-problem pass must have timed it. When every winner
is on every list (the timings decide that), the pass had nothing to add
and the check says so.
"""

import csv
import re
import sys


def main():
    db, program = sys.argv[1], sys.argv[2]
    with open(db) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    if not rows:
        print("tune_check: FAIL: no rows in %s" % db)
        return 1
    failed = [r for r in rows if r["check"] != "pass"]
    timed, best = {}, {}
    for r in rows:
        problem = (int(r["batch"]), int(r["m"]), int(r["n"]), int(r["k"]))
        timed.setdefault(problem, set()).add(r["schedule"])
        if r["check"] == "pass" and (problem not in best or
                                     float(r["us"]) < float(best[problem]["us"])):
            best[problem] = r
    with open(program) as f:
        text = f.read()
    schedules = re.findall(r'^     "(block=[^"]*)",$', text, re.M)
    kernels = [int(x) for x in
               re.search(r"_kernels\[\] = \{([\d, ]*)\}", text).group(1).split(",")]
    listed = {}
    for m in re.finditer(r"\{(\d+), (\d+), (\d+), (\d+), \w+ \+ (\d+), (\d+)\}",
                         text):
        first, count = int(m.group(5)), int(m.group(6))
        listed[tuple(int(x) for x in m.groups()[:4])] = {
            schedules[i] for i in kernels[first:first + count]}
    status = 0
    if failed:
        print("tune_check: FAIL: %d choices failed their check" % len(failed))
        status = 1
    if set(listed) != set(timed):
        print("tune_check: FAIL: the program's problems %s, the rows' %s"
              % (sorted(listed), sorted(timed)))
        return 1
    for problem, schedules in sorted(timed.items()):
        for other, winner in sorted(best.items()):
            if other != problem and winner["schedule"] not in schedules:
                print("tune_check: FAIL: %s did not time %s's winner %s"
                      % (problem, other, winner["schedule"]))
                status = 1
    added = 0
    for p in sorted(timed):
        extra = timed[p] - listed[p]
        added += len(extra)
        print("tune_check: %s: %d kernels listed, %d more timed, winner %s"
              % (p, len(listed[p]), len(extra),
                 best[p]["schedule"] if p in best else "-"))
    if not added:
        print("tune_check: every problem's winner was on every list: the "
              "cross-problem pass had nothing to add")
    print("tune_check: %s" % ("PASS" if status == 0 else "FAIL"))
    return status


if __name__ == "__main__":
    sys.exit(main())
