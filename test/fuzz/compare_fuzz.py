#!/usr/bin/env python3
"""Compares a fuzz program's output as written with its output as rewritten.

The programs come from gen.py; per nest they print a header with the bound's
terms, the cells of C the nest writes, every other cell of every region as
hex bit patterns, and live-out values (gen.py's docstring has the format).
A nest passes iff
  - its written cells agree norm-wise: ||x - y||_2 <= bound * scale, the
    bound test/e2e/compare.py's bound_of gives at K+2 for the header's type
    (4 (K+2) eps for f32 and f64; tf32 and 3xtf32 for a float product that
    asked for tensor cores), and
    NaN or infinity sit at the same cells with the same class on both sides
    (a GPU sums in another order than the loop, so no more is promised);
  - every other cell is bit-identical (guards, padding, gaps, A and B);
  - the live-out values are identical.

Used by fuzz.py and, on the GPU machine, by test/gpu/fuzz.sh:
    compare_fuzz.py expected.txt[.gz] actual.txt
prints one line per failing nest and `compare: P passed, F failed`; exit
status 1 if any nest failed.
"""

import gzip
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "e2e"))
from compare import bound_of  # noqa: E402

GUARD = 16
# Both programs compute the scale with the same code from the same inputs.
SCALE_TOLERANCE = 1e-9


class Record:
    """One nest's lines."""

    def __init__(self, header):
        self.header = header
        self.written = None
        self.cells = {}
        self.sinks = None


def parse(text):
    """Nest number -> Record."""
    records, cur = {}, None
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "nest":
            fields = rest.split()
            cur = records[int(fields[0])] = Record(fields[1:])
        elif cur is None:
            continue
        elif tag == "w":
            cur.written = rest
        elif tag == "x":
            name, _, tokens = rest.partition(" ")
            cur.cells[name] = tokens
        elif tag == "s":
            cur.sinks = rest
    return records


def expand(tokens):
    """The (token, cells it stands for) of an 'x' line: tok, tok*count (a
    run) or #hash/count (a group of distinct cells)."""
    out = []
    for tok in tokens.split():
        if tok.startswith("#"):
            out.append((tok, int(tok.partition("/")[2])))
            continue
        value, _, count = tok.partition("*")
        out.extend([(value, 1)] * (int(count) if count else 1))
    return out


def describe_cells(first, count, total):
    last = first + count - 1
    where = []
    if first < GUARD:
        where.append("the leading guard")
    if last >= GUARD and first < total - GUARD:
        where.append(f"cells {max(first, GUARD) - GUARD}.."
                     f"{min(last, total - GUARD - 1) - GUARD}")
    if last >= total - GUARD:
        where.append("the trailing guard")
    return " and ".join(where)


def compare_cells(name, expected, actual):
    if expected == actual:
        return None
    x, y = expand(expected), expand(actual)
    total = sum(n for _, n in x)
    if total != sum(n for _, n in y):
        return f"region {name}: {total} cells expected, " \
            f"{sum(n for _, n in y)} printed"
    first = 0
    for (a, n), (b, m) in zip(x, y):
        if a != b or n != m:
            break
        first += n
    what = " (the twins disagree)" if "." in (a, b) else ""
    return (f"region {name}: unwritten cells differ, first in "
            f"{describe_cells(first, max(n, m), total)} (region cells "
            f"{first}+, guard {GUARD}): expected {a}, got {b}{what}")


def _class(v):
    return "nan" if math.isnan(v) else ("+inf" if v > 0 else "-inf")


def compare_written(header, expected, actual):
    fields_x, fields_y = expected.split(), actual.split()
    if fields_x[0] != fields_y[0]:
        return f"{fields_x[0]} written cells expected, {fields_y[0]} printed"
    k, scale = int(header[1]), float(header[2])
    x = [float(v) for v in fields_x[1:]]
    y = [float(v) for v in fields_y[1:]]
    for i, (a, b) in enumerate(zip(x, y)):
        finite_a, finite_b = math.isfinite(a), math.isfinite(b)
        if (finite_a, finite_b) != (True, True) and (
                finite_a != finite_b or _class(a) != _class(b)):
            return (f"written cell #{i}: expected {a!r}, got {b!r} "
                    f"(NaN or infinity on one side)")
    error = math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(x, y)
                                if math.isfinite(a)))
    bound = bound_of(header[0], k + 2) * scale
    if not error <= bound:
        worst = max(range(len(x)), key=lambda i: abs(x[i] - y[i])
                    if math.isfinite(x[i]) else -1.0)
        return (f"written cells: ||x - y|| = {error:.3e} exceeds the bound "
                f"{bound:.3e} (K={k}, scale={scale:.6g}); worst #{worst}: "
                f"expected {x[worst]!r}, got {y[worst]!r}")
    return None


def compare_nest(exp, act):
    """The first difference between two Records, or None."""
    if act is None:
        return "no output (the program failed before or in this nest)"
    if exp.header[:2] != act.header[:2]:
        return f"headers differ: {exp.header} vs {act.header}"
    es, as_ = float(exp.header[2]), float(act.header[2])
    if not abs(es - as_) <= SCALE_TOLERANCE * abs(es):
        return f"the bound's scale differs: {es!r} vs {as_!r}"
    if exp.written is None or act.written is None:
        return "incomplete output"
    problem = compare_written(exp.header, exp.written, act.written)
    if problem:
        return problem
    if sorted(exp.cells) != sorted(act.cells):
        return f"regions differ: {sorted(exp.cells)} vs {sorted(act.cells)}"
    for name in sorted(exp.cells):
        problem = compare_cells(name, exp.cells[name], act.cells[name])
        if problem:
            return problem
    if exp.sinks != act.sinks:
        return f"live-out values differ: expected {exp.sinks}, got {act.sinks}"
    return None


def compare(expected_text, actual_text, nests=None):
    """Nest number -> None (passed) or why it failed, for every nest in
    `nests` (default: every nest of the expected output)."""
    exp, act = parse(expected_text), parse(actual_text)
    if nests is None:
        nests = sorted(exp)
    result = {}
    for n in nests:
        if n not in exp:
            result[n] = "no output from the original program"
        else:
            result[n] = compare_nest(exp[n], act.get(n))
    return result


def read(path):
    """A program's output; gzip-compressed if its name ends in .gz."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read()


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} expected.txt actual.txt", file=sys.stderr)
        return 2
    expected, actual = read(argv[1]), read(argv[2])
    result = compare(expected, actual)
    failed = [n for n, why in result.items() if why]
    for n in failed:
        print(f"nest {n}: {result[n]}")
    print(f"compare: {len(result) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
