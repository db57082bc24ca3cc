#!/usr/bin/env python3
"""Compares the output of a program built from gemm-opt output with the
output of the original program.

Usage: compare.py expected.txt actual.txt

Lines of the form

    matrix <label> <f32|f64|tf32|3xtf32> <K> <scale> <count> v1 ... v<count>

hold a result matrix. A GPU sums in another order than the sequential loop,
so they are compared norm-wise: the pair passes iff ||x - y||_2 <=
4 * K * eps * scale, with eps = 2^-24 (f32) or 2^-53 (f64), and any NaN or
infinity fails; float products that may run on TF32 tensor cores (tf32,
3xtf32) get their precision's bound (bound_of). `scale` is |alpha| * ||A||_F * ||B||_F + |beta| * ||C0||_F,
as both programs computed it from the same inputs. Every other line must be
identical.

Prints one line per matrix (label, error, bound, error/bound) and exits
non-zero, saying why, on the first mismatch.
"""

import math
import sys

EPS = {"f32": 2.0**-24, "f64": 2.0**-53, "tf32": 2.0**-24, "3xtf32": 2.0**-24}
# Both programs compute `scale` from the same inputs; allow for a differently
# ordered norm, nothing more.
SCALE_TOLERANCE = 1e-6


class Mismatch(Exception):
    pass


def parse_matrix(line, where):
    fields = line.split()
    if len(fields) < 6:
        raise Mismatch(f"{where}: malformed matrix line")
    _, label, dtype, k, scale, count = fields[:6]
    if dtype not in EPS:
        raise Mismatch(f"{where}: unknown element type '{dtype}'")
    try:
        k, scale, count = int(k), float(scale), int(count)
        values = [float(v) for v in fields[6:]]
    except ValueError as err:
        raise Mismatch(f"{where}: malformed matrix line: {err}")
    if len(values) != count:
        raise Mismatch(f"{where}: matrix '{label}' announces {count} values "
                       f"but has {len(values)}")
    return label, dtype, k, scale, values


def bound_of(dtype, k):
    """The bound over `scale` for a product in `dtype`: a float product that
    its user let run on TF32 tensor cores (tf32) keeps 10 mantissa bits of
    each operand and sums on the tensor cores; 3xTF32 drops the product of
    the operands' remainders (as the runtime's GEMM_OPT_VERIFY bounds)."""
    if dtype == "tf32":
        return 2.0**-9 + k * 2.0**-22
    bound = 4 * k * EPS[dtype]
    return bound + 2.0**-20 if dtype == "3xtf32" else bound


def compare_matrices(expected, actual, lineno):
    label, dtype, k, scale, x = parse_matrix(expected, f"expected:{lineno}")
    alabel, adtype, ak, ascale, y = parse_matrix(actual, f"actual:{lineno}")
    if (label, dtype, k, len(x)) != (alabel, adtype, ak, len(y)):
        raise Mismatch(
            f"line {lineno}: matrix headers differ: expected {label} {dtype} "
            f"K={k} count={len(x)}, actual {alabel} {adtype} K={ak} "
            f"count={len(y)}")
    if (not math.isfinite(scale)
            or abs(scale - ascale) > SCALE_TOLERANCE * abs(scale)):
        raise Mismatch(f"line {lineno}: matrix {label}: scales differ "
                       f"({scale!r} vs {ascale!r})")
    for name, values in (("expected", x), ("actual", y)):
        if not all(math.isfinite(v) for v in values):
            raise Mismatch(f"line {lineno}: matrix {label}: {name} output "
                           f"holds NaN or infinity")
    error = math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(x, y)))
    bound = bound_of(dtype, k) * scale
    ratio = error / bound if bound > 0 else (0.0 if error == 0 else math.inf)
    verdict = "ok" if error <= bound else "FAIL"
    print(f"matrix {label}: err={error:.3e} bound={bound:.3e} "
          f"ratio={ratio:.3e} {verdict}")
    if error > bound:
        raise Mismatch(f"line {lineno}: matrix {label}: error {error:.3e} "
                       f"exceeds the bound {bound:.3e}")


def compare(expected_lines, actual_lines):
    for lineno, (e, a) in enumerate(zip(expected_lines, actual_lines), 1):
        if e.startswith("matrix ") or a.startswith("matrix "):
            compare_matrices(e, a, lineno)
        elif e != a:
            raise Mismatch(f"line {lineno} differs:\n  expected: {e}\n"
                           f"  actual:   {a}")
    if len(expected_lines) != len(actual_lines):
        raise Mismatch(f"expected {len(expected_lines)} lines, got "
                       f"{len(actual_lines)}")


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} expected.txt actual.txt", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        expected = f.read().splitlines()
    with open(argv[2]) as f:
        actual = f.read().splitlines()
    try:
        compare(expected, actual)
    except Mismatch as err:
        print(f"compare.py: MISMATCH: {err}", file=sys.stderr)
        return 1
    print("compare.py: outputs agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
