#!/usr/bin/env python3
"""Never silent, checked from outside gemm-opt.

Usage: never_silent.py GEMM_OPT FILE...

Finds the candidate nests of each C or C++ file with libclang, independently
of gemm-opt's own filter: an outermost loop (`for`, `while`, `do`,
range-`for`) around a nest of two or more loops whose inner body accumulates
a product (`x += ...*...`, `x -= ...`,
`x = x + ...*...`, through any local or cast). Runs gemm-opt on the file with
the clang flags of its first `RUN: gemm-opt ... -- <flags>` line and requires
a gemm remark inside every candidate's lines. Prints each candidate without
one and exits non-zero if there is any.
"""

import os
import re
import shlex
import subprocess
import sys

try:
    import clang.cindex as cindex
except ImportError:
    # Debian's python3-clang-19 lives outside a pyenv interpreter's path.
    sys.path.append("/usr/lib/python3/dist-packages")
    import clang.cindex as cindex

ACCUMULATE = {"AddAssign", "SubAssign"}
LOOPS = {cindex.CursorKind.FOR_STMT, cindex.CursorKind.WHILE_STMT,
         cindex.CursorKind.DO_STMT, cindex.CursorKind.CXX_FOR_RANGE_STMT}
REMARK = re.compile(r"^(.*?):(\d+):(\d+): remark: .*\[-Rpass(-missed)?=gemm\]$")


def clang_flags(path):
    """The flags after `--` of the file's first gemm-opt RUN line, with %S."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            match = re.search(r"RUN: gemm-opt .*? -- (.*?)(?: 2>|\||$)", line)
            if match:
                flags = match.group(1).replace("%S", os.path.dirname(path))
                return shlex.split(flags)
    return []


def has_product(cursor):
    if (cursor.kind == cindex.CursorKind.BINARY_OPERATOR
            and cursor.binary_operator.name == "Mul"):
        return True
    return any(has_product(c) for c in cursor.get_children())


def accumulates(cursor):
    """Whether `cursor` holds an accumulation of a product."""
    kind = cursor.kind
    if kind == cindex.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR:
        if cursor.binary_operator.name in ACCUMULATE:
            rhs = list(cursor.get_children())[-1]
            if has_product(rhs):
                return True
    if (kind == cindex.CursorKind.BINARY_OPERATOR
            and cursor.binary_operator.name == "Assign"):
        rhs = list(cursor.get_children())[-1]
        while rhs.kind in (cindex.CursorKind.UNEXPOSED_EXPR,
                           cindex.CursorKind.PAREN_EXPR,
                           cindex.CursorKind.CSTYLE_CAST_EXPR):
            inner = list(rhs.get_children())
            if not inner:
                break
            rhs = inner[-1]
        if (rhs.kind == cindex.CursorKind.BINARY_OPERATOR
                and rhs.binary_operator.name in ("Add", "Sub")
                and has_product(rhs)):
            return True
    return any(accumulates(c) for c in cursor.get_children())


def is_candidate(loop, depth=1):
    """A loop with loops nested below it, two deep in all, whose innermost
    body (below the second loop) accumulates a product."""
    for child in loop.walk_preorder():
        if child == loop or child.kind not in LOOPS:
            continue
        if accumulates(child):
            return True
    return False


def outermost_loops(cursor, main, inside=False):
    """The loops of the main file that no other loop encloses."""
    for child in cursor.get_children():
        location = child.location
        if location.file and location.file.name != main:
            continue
        try:
            kind = child.kind
        except ValueError:  # a kind these bindings predate (OpenACC's)
            kind = None
        if kind in LOOPS and not inside:
            yield child
        else:
            yield from outermost_loops(child, main, inside)


def check(gemm_opt, path, index):
    flags = clang_flags(path)
    language = ["-xc"] if path.endswith(".c") else ["-xc++"]
    tu = index.parse(path, args=language + flags)
    loops = [loop for loop in outermost_loops(tu.cursor, path)
             if is_candidate(loop)]
    run = subprocess.run([gemm_opt, path, "--emit=mlir", "-o", os.devnull,
                          "--"] + flags, capture_output=True, text=True)
    lines = set()
    for line in run.stderr.splitlines():
        match = REMARK.match(line)
        if match and os.path.basename(match.group(1)) == os.path.basename(path):
            lines.add(int(match.group(2)))
    silent = []
    seen = set()
    for loop in loops:
        start, end = loop.extent.start.line, loop.extent.end.line
        if (start, end) in seen:  # a template's pattern and instantiations
            continue
        seen.add((start, end))
        if not any(start <= line <= end for line in lines):
            silent.append(f"{path}:{start}: a candidate nest (lines "
                          f"{start}-{end}) got no remark")
    return len(seen), silent


def main():
    gemm_opt, files = sys.argv[1], sys.argv[2:]
    index = cindex.Index.create()
    total, failures = 0, []
    for path in files:
        count, silent = check(gemm_opt, os.path.abspath(path), index)
        total += count
        failures += silent
    for failure in failures:
        print(failure)
    print(f"{total} candidate nests in {len(files)} files, "
          f"{len(failures)} without a remark")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
