#!/usr/bin/env python3
"""Checks what a tuning program wrote (test/gpu/run.sh's tune step).

Usage: tune_check.py DB.csv TUNE.cu

The program (gemm-opt --emit=tune on several problems of one nest) must
have checked every choice, and each problem must have timed the kernel
that won every other problem (docs/tuning.md): the cases of TUNE.cu list
what each problem times first, and at least one problem must have timed
more than its case lists, so that the cross-problem pass ran.
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
    listed = {}
    with open(program) as f:
        for m in re.finditer(r"\{(\d+), (\d+), (\d+), (\d+), \w+ \+ \d+, (\d+)\}",
                             f.read()):
            listed[tuple(int(x) for x in m.groups()[:4])] = int(m.group(5))
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
    grown = [p for p in timed if len(timed[p]) > listed[p]]
    for p in sorted(timed):
        print("tune_check: %s: %d kernels listed, %d timed, winner %s"
              % (p, listed[p], len(timed[p]), best[p]["schedule"] if p in best else "-"))
    if not grown:
        print("tune_check: FAIL: no problem timed another problem's winner "
              "beyond its own list: the cross-problem pass did not run")
        status = 1
    print("tune_check: %s" % ("PASS" if status == 0 else "FAIL"))
    return status


if __name__ == "__main__":
    sys.exit(main())
