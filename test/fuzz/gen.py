#!/usr/bin/env python3
"""Random GEMM loop nests and near-misses for gemm-opt's differential fuzzer.

`generate(seed)` returns a self-contained C++ program holding several nests,
each in its own static function `fz_nestN`, run by `fz_runN` on its own
random inputs and printed for the driver (fuzz.py; compare_fuzz.py compares).
Every nest is either a GEMM in one of the forms gemm-opt recognises, or a
near-miss that it must leave alone (or handle correctly). Some loops of a
nest are written in another shape over the same values: within tiles
(clipped or, where the tile divides the range, not), as `while` loops, or
unrolled with a remainder loop, and some valid nests are the text of an
object-like macro; the shape near-misses make tiles overlap or
leave gaps, copy one unrolled term at the wrong offset, restart the
remainder, or change a `while` loop's variable in its body. Some nests
carry a statement beside the product that sums into an array of its own
(split off by gemm-opt, the array compared bit for bit), read an input
through a pointer that walks the innermost loop, or sum float matrices in
a double accumulator, or declare a hoisted factor without initialiser
(C89) and set it later; their near misses read the accumulator or C beside
the product, or bump the pointer in some iterations only. Some nests, valid
or not, of either type, ask for a precision by `#pragma gemm_opt
precision(fp32|tf32|3xtf32)` above them (with a comment between, at times):
a rewritten one's remark must say what it got, and C of a float product
that may run on TF32 tensor cores is held to that precision's bound.

Every operand lives in a flat *region* of the harness: GUARD poisoned cells,
the cells the operand's view can reach, GUARD poisoned cells. A view hands
the nest its operand in the storage under test (a pointer with run-time
leading dimensions, a fixed-size array parameter, global or local, a
std::vector or std::valarray, a struct member), so one set of dump routines
serves them all.

Which cells of C a nest writes comes from its *twin* `fz_maskN`: the same
loop tree printed with every statement that stores to C replaced by
`<that element> = 1` and everything else dropped, run on a zeroed copy of C's
region. Printed from the same tree as the nest, it cannot disagree with the
nest's indexing; dropping control flow only adds cells (a superset), which
are compared norm-wise like every written cell. Every other cell of C is
poisoned before the nest runs.

Program output, one line each per nest:
    nest <N> <type> <K> <scale>      the bound on ||x - y||_2: type f32 or
                                     f64, 4 (K+2) eps scale; tf32 or 3xtf32
                                     (a nest that asks for tensor cores),
                                     that precision's bound at K+2
    w <count> <v>...                 written cells of C (%.9g for float,
                                     %.17g for double: exact), in order
    x <region> <tok>...              every cell of a region as a hex bit
                                     pattern ('.': a written cell), runs of
                                     equal tokens as tok*count, up to 64
                                     other cells as #<hash>/<count>
    s <long> <double bits>           live-out values of near-misses

The harness that every program starts with (allocation, poison, inputs,
norms, dumps, GPU copies) is harness.h. Its loops are one loop deep, and the
twins store constants, so gemm-opt sees no candidate nest but the nests
under test.

Usage: gen.py --seed S [--only N] [--big] [-o prog.cpp] [--meta]
"""

import argparse
import json
import os
import random
import re
import sys
from dataclasses import dataclass, field

GUARD = 16
SMALL_PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43]
LOOP_NAMES = {"b": ["b", "q", "bt", "z"], "i": ["i", "r", "ii", "row"],
              "j": ["j", "c", "jj", "col"], "k": ["k", "l", "p", "kk"]}
EXTENT_PARAM = {"b": "NB", "i": "M", "j": "N", "k": "K"}
# The loops that index each operand: A is M x K, B is K x N, C is M x N.
LOGICAL = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j")}
ARRAYS = ("arr", "glob", "local", "member")
# Views that are a pointer into the region: only these may be GPU memory.
DEVICE_OK = ("ptr", "struct", "arr", "member")

# Near-misses: weight, and what gemm-opt should do: "miss" (leave it as
# written), "gemm" (rewrite it; the run-time overlap check falls back) or
# "any" (either is right if the results agree).
NEAR_MISSES = {
    "wrong_index": (3, "miss"), "assign": (2, "miss"),
    "extra_term": (2, "miss"), "nonrect": (2, "miss"),
    "write_bound": (1, "miss"), "write_ld": (1, "miss"),
    "write_input": (1, "miss"), "write_ptr": (1, "miss"),
    "read_c": (1, "miss"), "call": (1, "miss"), "control": (3, "miss"),
    "liveout_iv": (1, "miss"), "liveout_acc": (1, "miss"),
    "increment": (1, "miss"), "other_write": (1, "miss"),
    "mixed": (2, "miss"), "mixed_acc": (2, "miss"),
    "alias_runtime": (2, "gemm"), "alias_static": (1, "miss"),
    "c_overlap": (1, "any"), "double_update": (1, "miss"),
    # No near-miss: B lies in A's buffer (at A's origin, inside, past it).
    "ab_alias": (2, "gemm"),
    # Loop shapes (see shape_loops) that do not cover the range once.
    "tile_gap": (1, "miss"), "tile_overlap": (1, "miss"),
    "unroll_copy": (1, "miss"), "remainder_start": (1, "miss"),
    "jam_copy": (1, "miss"),
    # Lanes of partial sums (shape_lanes): the last lane reads the one
    # before it, or is left out of the final sum.
    "lanes_cross": (1, "miss"), "lanes_missing": (1, "miss"),
    "iv_changed": (1, "miss"),
    # f2c's forms (bound_temporaries, the acc form's store 5): a bound
    # temporary read after the nest; store branches on beta that differ by
    # more than beta * C, which no beta folds but which version the nest
    # (a launcher per arm, Unswitch.cpp).
    "temp_live": (1, "miss"), "store_branch": (1, "gemm"),
    # Calls of helpers whose bodies are visible: read as their bodies.
    "inline_call": (2, "gemm"),
    # An input read through byte offsets of half elements (byte_view): left
    # alone, or read right where every term happens to be even.
    "byte_half": (1, "any"),
}
# Statements beside the product (shape_side), drawn apart from NEAR_MISSES:
# "side" sums into an array of its own (split off, rewritten); "side_acc"
# also reads the accumulator (left as written); "side_c" reads C's element,
# which the launcher's overlap check sends to the loop (either is right).
SIDE_KINDS = {"side": "gemm", "side_acc": "miss", "side_c": "any"}
SHAPE_MISSES = ("lanes_cross", "lanes_missing",
                "tile_gap", "tile_overlap", "unroll_copy", "remainder_start",
                "iv_changed", "jam_copy")

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.h")
MEMKIND_PREFIX = "static const int fz_memkind[] = {"


def lit(ctype, value):
    """A floating literal of `value` in `ctype`."""
    text = repr(float(value))
    return text + "f" if ctype == "float" else text


def memkind_line(kinds):
    """The table of memory kinds, three (A, B, C) per nest index."""
    return MEMKIND_PREFIX + ", ".join(str(k) for k in kinds) + "};"


def patch_memkind(text, allowed):
    """Sets the memory kinds of every nest not in `allowed` to host, in a
    program or in gemm-opt's output of it (which keeps the line)."""
    out = []
    for line in text.split("\n"):
        if line.startswith(MEMKIND_PREFIX):
            kinds = [int(k) for k in
                     line[len(MEMKIND_PREFIX):].rstrip("};").split(",")]
            line = memkind_line(k if i // 3 in allowed else 0
                                for i, k in enumerate(kinds))
        out.append(line)
    return "\n".join(out)


def byte_view(base, index, ctype, const, how):
    """Element `index` of the pointer `base`, read through a byte offset
    (ByteOffset.cpp): a char view moved by index * sizeof, the pointer as
    an integer, a shift, or a run-time element size `es` (the nest is
    versioned on it); "half" moves by half elements, a near miss."""
    q = "const " if const else ""
    size = {"float": 4, "double": 8}[ctype]
    offset = {"char": f"(long)({index}) * (long)sizeof({ctype})",
              "uptr": f"({index}) * sizeof({ctype})",
              "shift": f"(long)({index}) << {size.bit_length() - 1}",
              "es": f"(size_t)({index}) * es",
              "half": f"(long)({index}) * {size // 2}"}[how]
    address = (f"(std::uintptr_t){base} + {offset}" if how == "uptr"
               else f"({q}unsigned char *){base} + ({offset})")
    return f"(*({q}{ctype} *)({address}))"


@dataclass
class Loop:
    role: str                 # 'b', 'i', 'j' or 'k'
    name: str
    lo: int
    hi: int                   # exclusive
    ctype: str = "int"
    lo_text: str = "0"
    hi_text: str = "0"
    outside: bool = False     # declared before the nest
    cond: str = "<"
    step: str = "++v"
    pragma: str = ""
    # How the loop is written (shape_loops): "for"; "while" (started by the
    # statement before it, stepped as the body's last); "down-test" (a
    # `while` from the bound down to the start, stepped by its test, `v-- >
    # lo`, or `v-- != lo`); "tile" (over the
    # tiles of its point loop, by `tile`); "point" (within the tiles of
    # loop `of`: up to `width` from the tile's index, clipped at the bound
    # by `clip`, "min" or "cond", or not, "").
    shape: str = "for"
    tile: int = 0
    width: int = 0
    clip: str = ""
    of: str = ""
    # f2c: the bound is a temporary set to `temp_value` just before the loop
    # (bound_temporaries).
    temp: str = ""
    temp_value: str = ""

    def start(self):
        return (f"{self.name} = {self.lo_text}" if self.outside
                else f"{self.ctype} {self.name} = {self.lo_text}")

    def test(self):
        v, h = self.name, self.hi_text
        return {"<": f"{v} < {h}", ">": f"{h} > {v}",
                "<=": f"{v} <= {h} - 1", ">=": f"{h} - 1 >= {v}",
                "!=": f"{v} != {h}"}[self.cond]

    def stepping(self):
        return self.step.replace("v", self.name)

    def header(self):
        v, h = self.name, self.hi_text
        if self.shape == "tile":
            return (f"for ({self.ctype} {v} = {self.lo_text}; {v} < {h}; "
                    f"{v} += {self.tile})")
        if self.shape == "point":
            t, w = self.of, self.width
            end = {"min": f"std::min<{self.ctype}>({t} + {w}, {h})",
                   "cond": f"({t} + {w} < {h} ? {t} + {w} : {h})",
                   "": f"{t} + {w}"}[self.clip]
            init = f"{v} = {t}" if self.outside else f"{self.ctype} {v} = {t}"
            return f"for ({init}; {v} < {end}; ++{v})"
        if self.shape == "while":
            return f"while ({self.test()})"
        if self.shape == "down-test":
            return f"while ({self.name}-- {self.cond} {self.lo_text})"
        return f"for ({self.start()}; {self.test()}; {self.stepping()})"


@dataclass
class Stmt:
    text: str
    writes: list = field(default_factory=list)  # the C elements it stores to


@dataclass
class Block:
    """A loop and the Blocks and Stmts it runs."""
    loop: Loop
    body: list
    braces: bool = False


@dataclass
class Unrolled:
    """A loop over one update unrolled by `count`: `int v;`, a loop stepping
    by `count` over the copies at v, v + 1, ... (statements, or the terms of
    one sum), and a remainder loop (`for`, `while`, or none) that continues
    from where it stopped. Near-misses: a copy at a wrong offset, a
    remainder that starts over."""
    loop: Loop
    update: Stmt
    count: int
    sum: bool
    remainder: str
    wrong_copy: bool = False
    restart: bool = False
    # Copies summed into lanes `s_lane[count]` (shape_lanes): "ok",
    # "cross" or "missing"; the remainder into the accumulator or lane 0.
    lanes: str = ""
    lanes_rest: str = ""
    lanes_type: str = ""


@dataclass
class Operand:
    role: str                 # 'A', 'B' or 'C'
    ctype: str
    storage: str              # ptr, vec, struct, or one of ARRAYS
    vars: list                # loop roles in storage order, outer first
    name: str = ""            # what the nest indexes
    pname: str = ""           # the parameter of fz_nestN
    const: bool = False
    region: str = ""          # the region it lives in (C may share one)
    base: int = 0             # its origin in the region, past the guard
    span: int = 0             # cells from its origin that it can reach
    strides: list = None      # per entry of vars
    stride_texts: list = None
    shape: list = None        # array storages
    offset_text: str = ""     # a flat index's term reaching past the guard
    style: int = 0            # spelling of flat indices
    wrap: str = None          # flat indices as wrap(i): a cast or parens
    by: str = "."             # '.' or '->' for struct and member views
    bytes: str = ""           # a pointer view read through bytes (byte_view)
    extra: list = field(default_factory=list)  # other index maps it is read at

    def access(self, subst, vars=None):
        """The element at loop roles -> expressions `subst`."""
        idx = [subst[v] for v in (vars or self.vars)]
        if self.storage in ARRAYS:
            return self.name + "".join(f"[{e}]" for e in idx)
        if self.wrap is not None:
            idx = [f"{self.wrap}({e})" for e in idx]
        terms = []
        for e, st in zip(idx, self.stride_texts):
            if st == "1":
                terms.append(e)
            else:
                terms.append(f"{st} * {e}" if self.style % 2 else
                             f"{e} * {st}")
        if self.style in (2, 3) and len(terms) >= 2:
            terms[-2:] = [terms[-1], terms[-2]]
        if self.style == 4 and len(idx) >= 2:
            terms[-2:] = [f"FZ_IX({idx[-2]}, {idx[-1]}, "
                          f"{self.stride_texts[-2]})"]
        if self.offset_text:
            terms.insert(0, self.offset_text)
        base = self.name
        if self.storage == "struct":
            base = f"{self.name}{self.by}a"
        elif self.storage == "vec" and self.style == 3:
            base = f"{self.name}.data()"
        if self.bytes:
            return byte_view(base, " + ".join(terms), self.ctype, self.const,
                             self.bytes)
        return f"{base}[{' + '.join(terms)}]"


@dataclass
class NestInfo:
    """What the driver needs to know of one nest."""
    index: int
    line: int = 0             # of its outermost 'for'
    col: int = 0
    inner_line: int = 0       # of the next 'for' (where a peeled nest starts)
    end: int = 0              # the last line of fz_nestN
    expect: str = "gemm"
    kind: str = "valid"
    memkind: list = field(default_factory=lambda: [0, 0, 0])
    summary: str = ""
    # `#pragma gemm_opt precision(...)` above the nest: what it asks, and
    # what the remark of the nest, if rewritten, says of it.
    precision: str = ""
    precision_remark: str = ""


class NestGen:
    """Draws one nest from a seeded Random and prints its functions."""

    def __init__(self, rng, index, big):
        self.rng, self.n, self.big = rng, index, big
        self.params = []          # scalar (declaration, argument) of fz_nestN
        self.values = {}          # named alpha/beta parameters
        self.setup, self.teardown = [], []   # fz_callN, around the call
        self.prelude, self.post = [], []     # fz_nestN, around the nest
        self.globals = []
        self.info = NestInfo(index)
        self.bias_role = None     # 'i' or 'j': fz_biasN's loop
        self.shapes = []          # loop shapes drawn (shape_loops)
        self.has_function = False
        self.bias_start = None    # (Stmt, s, bias, type): `T s = bias;`
        self.side = None          # (array, size, type, role it reads)
        self.hoist = None         # the hoist form's `T h = x;`
        self.precision_comment = False   # a comment below the pragma

    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    def param(self, decl, arg):
        if all(d != decl for d, _ in self.params):
            self.params.append((decl, arg))

    # -- drawing the nest -----------------------------------------------------
    def generate(self):
        info = self.info
        self.dtype = self.pick("float", "double")
        if self.chance(0.4):
            names = list(NEAR_MISSES)
            info.kind = self.rng.choices(
                names, [NEAR_MISSES[k][0] for k in names])[0]
            info.expect = NEAR_MISSES[info.kind][1]
        forms = ["plain", "plain", "acc", "acc", "hoist", "fused_stmt",
                 "fused_loop"]
        if info.kind in ("assign", "extra_term", "read_c", "call",
                         "alias_static", "write_input", "inline_call"):
            forms = ["plain"]
        elif info.kind == "wrong_index":
            forms = forms[:4] + forms[5:]   # a hoisted load needs its loops
        elif info.kind == "nonrect":
            forms = forms[:6]   # the init loop runs outside the loop it uses
        elif info.kind in ("liveout_acc", "mixed_acc", "store_branch"):
            forms = ["acc"]
        elif info.kind in ("unroll_copy", "remainder_start"):
            forms = ["plain", "acc"]
        elif info.kind in ("lanes_cross", "lanes_missing"):
            forms = ["acc"]
        elif info.kind == "jam_copy":
            forms = ["plain"]
        self.form = self.rng.choice(forms)
        self.batched = self.chance(0.3)
        self.choose_order()
        self.choose_extents()
        self.choose_operands()
        self.mutate_indices()
        self.layout()
        self.choose_headers()
        self.tree = self.build_body()
        self.late_init()
        self.apply_statement_misses()
        self.shape_loops()
        self.shape_copies()
        self.shape_side()
        self.shape_walk()
        self.bound_temporaries()
        if (info.expect == "gemm" and info.kind == "valid" and
                all(op.storage in DEVICE_OK for op in self.ops.values())):
            info.memkind = [self.pick(0, 1, 1, 2) for _ in "ABC"]
        # The split-off statement runs on the host: what it reads stays there.
        if self.side and self.side[3] in "AB":
            info.memkind["ABC".index(self.side[3])] = 0
        self.branch_update()
        self.guards_and_conjugates()
        self.choose_precision()
        info.summary = self.summary()
        return self

    def choose_precision(self):
        """Some nests ask for a precision (docs/precision.md) by a pragma,
        drawn apart from the nest so that it stays as drawn without it: a
        float product may then run on TF32 tensor cores; an f64 one, or
        floats summed in double, keep their precision, and the remark says
        that it does not apply."""
        side = random.Random("precision " + str(self.rng.getstate()[1][:8]))
        if side.random() >= 0.3:
            return
        info = self.info
        info.precision = side.choice(["tf32", "tf32", "3xtf32", "3xtf32",
                                      "fp32"])
        self.precision_comment = side.random() < 0.3
        if info.precision == "fp32":
            return
        info.precision_remark = (f"precision {info.precision} (" if
                                 self.tensor_cores() else
                                 f"precision {info.precision} does not apply")
        # A float product stored into a C of another type may go through a
        # float temporary, which the precision then does apply to.
        if (info.kind == "mixed" and self.dtype == "float" and
                {self.ops[r].ctype for r in "AB"} == {"float"}):
            info.precision_remark = f"precision {info.precision}"

    def tensor_cores(self):
        """Whether the nest's pragma lets it run on TF32 tensor cores: a
        float product summed in float."""
        return (self.info.precision in ("tf32", "3xtf32") and
                self.info.kind != "mixed_acc" and
                {op.ctype for op in self.ops.values()} | {self.dtype} ==
                {"float"})

    def choose_order(self):
        """Loop roles, outer to inner, as the form needs them."""
        form = self.form
        if form in ("acc", "fused_stmt"):
            order = self.rng.sample(["i", "j"], 2) + ["k"]
        elif form == "hoist":
            self.hoisted = self.pick("A", "B")
            inner = "j" if self.hoisted == "A" else "i"
            order = self.rng.sample([r for r in "ijk" if r != inner], 2)
            order.append(inner)
        elif form == "fused_loop":
            x = self.pick("i", "j")
            order = [x, "k", "j" if x == "i" else "i"]
        else:
            order = self.rng.sample(["i", "j", "k"], 3)
        if self.batched:
            # Anywhere in a plain nest; above the statements in the others.
            last = {"plain": 3, "fused_loop": 1}.get(form, 2)
            order.insert(self.rng.randint(0, last), "b")
        self.order = order

    def extent(self):
        r = self.rng.random()
        if r < 0.08:
            return 1
        if r < 0.40:
            return self.rng.choice(SMALL_PRIMES)
        if r < 0.82:
            return self.rng.randint(20, 130)
        return self.rng.randint(130, 400)

    def choose_extents(self):
        ext = {r: self.extent() for r in "ijk"}
        ext["b"] = self.rng.randint(1, 6) if self.batched else 1
        # CPU time of the original loop, and the size of the dump.
        budget, cap = (2e7, 150000) if self.big else (2e6, 100000)
        while (_prod(ext.values()) > budget or
               ext["b"] * max(ext["i"], ext["k"]) * max(ext["j"], ext["k"])
               > cap):
            r = max("ijk", key=lambda r: ext[r])
            ext[r] = max(1, ext[r] // 2)
        self.loops = {}
        for role in self.order:
            lo = 0 if self.chance(0.75) else self.rng.randint(1, 4)
            self.loops[role] = Loop(role, self.rng.choice(LOOP_NAMES[role]),
                                    lo, lo + ext[role])

    def choose_operands(self):
        kind = self.info.kind
        self.ops = {}
        # The input that C shares a region with, as pointers.
        alias = self.pick("A", "B") if kind == "alias_runtime" else None
        for role in "ABC":
            storage = self.pick("ptr", "ptr", "ptr", "vec", "varr", "struct",
                                "arr", "arr", "glob", "local", "member")
            if role in ("C", alias) or (kind == "write_ptr" and role == "A"):
                storage = "ptr" if kind in ("alias_runtime", "write_ptr") \
                    else storage
            if kind == "write_ld" and role == "A":
                storage = self.pick("ptr", "vec")
            if kind == "c_overlap" and role == "C":
                storage = self.pick("ptr", "vec", "struct")
            vars = list(LOGICAL[role])
            if self.chance(0.5):
                vars.reverse()            # column-major, or transposed
            if self.batched and (role == "C" or self.chance(0.8)):
                vars.insert(0, "b")
            op = Operand(role, self.dtype, storage, vars, region=role)
            op.const = role != "C" and self.chance(0.5)
            op.style = self.rng.randint(0, 4)
            op.wrap = self.pick(None, None, None, "", "(long)",
                                "static_cast<std::ptrdiff_t>")
            op.by = self.pick(".", "->")
            if storage == "ptr" and kind != "mixed" and self.chance(0.2):
                op.bytes = self.pick("char", "uptr", "shift", "es")
                if op.bytes == "es":
                    self.param("size_t es", f"sizeof({self.dtype})")
            self.ops[role] = op
        if kind == "mixed":
            op = self.ops[self.pick("A", "B", "C")]
            op.ctype = "float" if self.dtype == "double" else "double"
        if kind == "byte_half":
            op = self.ops[self.pick("A", "B")]
            op.storage, op.bytes = "ptr", "half"
        # The input that write_input negates (write_ld changes A's ld).
        self.written = self.pick("A", "B")
        if kind == "write_ld":
            self.written = "A"
        if kind in ("write_input", "write_ld"):
            self.ops[self.written].const = False
        if alias:
            self.ops["C"].region = alias
        if kind == "ab_alias":
            self.ops["B"].region = "A"
        self.name_operands()

    def name_operands(self):
        for role, op in self.ops.items():
            low = role.lower()
            op.name, op.pname = {
                "ptr": (role, role), "vec": (role, role), "varr": (role, role),
                "arr": (role, role),
                "local": (role, "x" + role),
                "glob": (f"fz_g{self.n}_{low}", "x" + role),
                "struct": ("m" + low, "m" + low),
                "member": (f"t{low}{op.by}c", "t" + low)}[op.storage]

    def mutate_indices(self):
        """Index-map near-misses: one access indexed by the wrong loop, or C
        read in place of A."""
        if self.info.kind == "wrong_index":
            # C is stored outside the k loop except in the plain form.
            role = self.pick(*("ABC" if self.form == "plain" else "AB"))
            swaps = {"A": {"k": "j", "i": "j"}, "B": {"k": "i", "j": "i"},
                     "C": {"j": "k", "i": "k"}}[role]
            old = self.pick(*swaps)
            op = self.ops[role]
            op.vars = [swaps[old] if v == old else v for v in op.vars]
        elif self.info.kind == "alias_static":
            c = self.ops["C"]
            c.extra.append(["b"] * ("b" in c.vars) + list(LOGICAL["A"]))

    def layout(self):
        """Strides, array shapes, spans and regions."""
        hi = {r: lp.hi for r, lp in self.loops.items()}
        for op in self.ops.values():
            accesses = [op.vars] + op.extra
            if op.storage in ARRAYS:
                # At least 2: with a last extent of 1, both loops would step
                # the array by 1 (C[j][i] in C[5][1]).
                op.shape = [max(2, max(hi[acc[d]] for acc in accesses) +
                                (0 if self.chance(0.5) else
                                 self.rng.randint(1, 3)))
                            for d in range(len(op.vars))]
                op.strides = [_prod(op.shape[d + 1:])
                              for d in range(len(op.shape))]
                if op.storage == "local" and _prod(op.shape) * 8 > 256 * 1024:
                    op.storage = "glob"       # keep the stack small
                    self.name_operands()
                op.span = _prod(op.shape)     # copied whole, for glob/local
            else:
                self.flat_strides(op, accesses, hi)
                op.span = max(sum((hi[v] - 1) * s
                                  for v, s in zip(acc, op.strides))
                              for acc in accesses) + 1
        # Regions: an operand's origin 0-3 cells past the guard, so that
        # 16-byte alignment comes and goes; an operand sharing another's
        # region starts at its origin, inside it, or past its end.
        self.spans = {}
        for role, op in self.ops.items():
            if op.region == role:
                op.base = self.pick(0, 0, 0, 1, 2, 3)
                self.spans[role] = op.base + op.span
        for role, op in self.ops.items():
            if op.region != role:
                owner = self.spans[op.region]
                op.base = self.pick(0, self.rng.randint(0, owner),
                                    owner + self.rng.randint(0, 5))
                self.spans[op.region] = max(owner, op.base + op.span)
        for op in self.ops.values():
            if op.storage in ("ptr", "vec", "varr") and self.chance(0.25):
                op.offset_text = self.pick(str(GUARD), "off")

    def flat_strides(self, op, accesses, hi):
        """A leading dimension larger than, equal to or smaller than the
        extent (inputs only), or zero; batch strides with gaps, odd or zero."""
        kind = self.info.kind
        inner = max(hi[acc[-1]] for acc in accesses)
        # C's rows (or batches, below) overlap in c_overlap.
        overlap = kind == "c_overlap" and op.role == "C"
        overlap_rows = overlap and (op.vars[0] != "b" or self.chance(0.5))
        if op.role == "C":
            ld = inner + (0 if self.chance(0.4) else self.rng.randint(1, 7))
            if overlap_rows:
                ld = self.rng.randint(0, max(0, inner - 1))
        else:
            how = self.rng.choices(["gt", "eq", "lt", "zero"], [4, 3, 2, 1])[0]
            ld = {"gt": inner + self.rng.randint(1, 7), "eq": inner,
                  "lt": self.rng.randint(1, max(1, inner - 1)), "zero": 0}[how]
        op.strides = [1] * len(op.vars)
        op.strides[-2] = ld
        matrix = (max(hi[acc[-2]] for acc in accesses) - 1) * ld + inner
        if op.vars[0] == "b":
            if overlap and not overlap_rows:
                sb = self.rng.randint(0, max(0, matrix - 1))
            elif op.role == "C":
                sb = matrix + (0 if self.chance(0.5) else
                               self.rng.randint(1, 9))
            else:
                sb = self.pick(0, matrix, matrix + self.rng.randint(1, 9),
                               self.rng.randint(0, matrix) | 1)
            op.strides[0] = sb
        elif self.batched and op.role != "C" and self.chance(0.5):
            # Broadcast over the batch through a run-time zero stride.
            op.vars.insert(0, "b")
            op.strides.insert(0, 0)
            for acc in op.extra:
                acc.insert(0, "b")
        texts = []
        for d, (v, s) in enumerate(zip(op.vars, op.strides)):
            name = ("s" if v == "b" else "ld") + op.role.lower()
            if d == len(op.vars) - 1:
                texts.append("1")
            elif op.storage == "struct":
                texts.append(f"{op.name}{op.by}{'sb' if v == 'b' else 'ld'}")
            elif kind == "write_ld" and op.role == "A" and v != "b":
                texts.append(name)
                self.ld_write = (name, s)
                self.param(f"long {name}", str(s))
            elif s >= 2 and self.chance(0.35):
                # A literal 0 or 1 would erase the loop from the index
                # (A[0 * i + k]); those strides come at run time.
                texts.append(str(s))
            else:
                texts.append(name)
                self.param(f"{self.pick('int', 'long')} {name}", str(s))
        op.stride_texts = texts

    def choose_headers(self):
        kind = self.info.kind
        fields = {}   # role -> a struct field holding its bound
        for op in self.ops.values():
            if op.storage == "struct":
                r0, r1 = LOGICAL[op.role]
                fields.setdefault(r0, f"{op.name}{op.by}rows")
                fields.setdefault(r1, f"{op.name}{op.by}cols")
        for role in self.order:
            lp = self.loops[role]
            lp.ctype = self.pick("int", "int", "long", "std::size_t",
                                 "unsigned")
            lp.cond = self.pick("<", "<", ">", "<=", ">=", "!=")
            lp.step = self.pick("++v", "v++", "v += 1", "v = v + 1")
            if lp.lo and self.chance(0.5):
                lp.lo_text = f"{role}0"
                self.param(f"int {role}0", str(lp.lo))
            else:
                lp.lo_text = str(lp.lo)
            how = self.pick("lit", "param", "param", "field")
            if how == "field" and role in fields:
                lp.hi_text = fields[role]
            elif how == "lit":
                lp.hi_text = str(lp.hi)
            else:
                lp.hi_text = EXTENT_PARAM[role]
                self.param(f"{self.pick('int', 'long')} {lp.hi_text}",
                           str(lp.hi))
        if kind == "write_bound":
            lp = self.loops[self.pick(*self.order)]
            if lp.hi_text != EXTENT_PARAM[lp.role]:
                lp.hi_text = EXTENT_PARAM[lp.role]
                self.param(f"long {lp.hi_text}", str(lp.hi))
            self.bound_write = (lp.hi_text, max(lp.lo + 1, lp.hi - 1))
        if kind == "nonrect":
            self.make_nonrect()
        if kind == "liveout_iv":
            lp = self.loops[self.pick(*self.order)]
            lp.outside = True
            self.prelude.append(f"{lp.ctype} {lp.name};")
            self.post.append(f"fz_sink_l = (long){lp.name};")
        elif self.chance(0.1):
            # C89: every induction variable declared up front.
            for lp in self.loops.values():
                lp.outside = True
            self.prelude.append(" ".join(f"{lp.ctype} {lp.name};"
                                         for lp in self.loops.values()))
        outer = self.loops[self.order[0]]
        if self.chance(0.15) and outer.role != "k" and not outer.outside:
            outer.pragma = "#pragma omp parallel for" + self.pick(
                "", " schedule(static)")

    def make_nonrect(self):
        """An inner loop's bound follows an outer loop (k < i + 1), within
        the rectangle the regions were sized for."""
        pairs = [(u, v) for a, u in enumerate(self.order)
                 for v in self.order[a + 1:]
                 if "b" not in (u, v) and
                 self.loops[u].hi - self.loops[u].lo <=
                 self.loops[v].hi - self.loops[v].lo]
        if not pairs:
            self.info.kind = "control"
            return
        lu, lv = (self.loops[r] for r in self.pick(*pairs))
        lv.hi_text = f"{lu.name} + {lv.lo - lu.lo + 1}"
        lv.cond = "<"

    # -- statements -----------------------------------------------------------
    def subst(self):
        return {r: lp.name for r, lp in self.loops.items()}

    def access(self, role):
        return self.ops[role].access(self.subst())

    def scalar(self, value, name):
        """`value` as a parameter `name` or as a literal."""
        if name not in self.values and self.chance(0.5):
            self.values[name] = value
            self.param(f"{self.dtype} {name}", lit(self.dtype, value))
        if self.values.get(name) == value:
            return name
        text = lit(self.dtype, value)
        return f"({text})" if value < 0 else text

    def product(self, a, b):
        """A * B in one of its spellings, with or without alpha; returns the
        text and |alpha|."""
        form = self.rng.randint(0, 6)
        if form < 3:
            return [f"{a} * {b}", f"{b} * {a}", f"({a}) * ({b})"][form], 1.0
        alpha = self.pick(0.5, 1.5, -2.0, 0.75, -1.25)
        al = self.scalar(alpha, "alpha")
        text = [f"{al} * {a} * {b}", f"{a} * {b} * {al}",
                f"{al} * ({a} * {b})", f"{a} * {al} * {b}"][form - 3]
        return text, abs(alpha)

    def clamp(self, s, t):
        """`s`, of type `t` (None: not known), under a ReLU or a clamp, in
        one of the written forms; std::max and std::min only where both
        arguments are of s's type, as C++ requires."""
        u = t or self.dtype
        zero, lo, hi = f"({u})0", f"({u})-0.25", f"({u})0.5"
        forms = [f"{s} > 0 ? {s} : 0",
                 f"{s} < 0 ? 0 : {s}",
                 f"std::fmax({zero}, {s})",
                 f"std::fmin(std::fmax({s}, {lo}), {hi})"]
        if t:
            forms += [f"std::max({s}, {zero})",
                      f"std::min(std::max({s}, {lo}), {hi})"]
        return self.pick(*forms)

    def function(self, x):
        """tanh, the sigmoid or GELU of `x` in one of the written forms, with
        the element type's libm calls (tanhf for float) or std::'s."""
        f = "f" if self.dtype == "float" else ""
        one, half = lit(self.dtype, 1), lit(self.dtype, 0.5)
        k, c = lit(self.dtype, 0.7978845608), lit(self.dtype, 0.044715)
        return self.pick(
            f"tanh{f}({x})", f"std::tanh({x})",
            f"{one} / ({one} + exp{f}(-{x}))",
            f"{one} / ({one} + std::exp(-{x}))",
            f"{half} * {x} * ({one} + tanh{f}({k} * ({x} + {c} * {x} * {x} "
            f"* {x})))",
            f"{x} * {half} * ({one} + erf{f}({x} * "
            f"{lit(self.dtype, 0.7071067811865476)}))",
            f"{half} * {x} * ({one} + std::erf({x} / std::sqrt("
            f"{lit(self.dtype, 2)})))")

    def activation(self, x, t):
        """`x`, of type `t`, under a clamp, a function, or a clamp of a
        function; notes a function in self.has_function (its libm rounds
        apart by ulps)."""
        form = self.rng.randint(0, 2)
        self.has_function = form > 0
        if form == 0:
            return self.clamp(x, t)
        fx = self.function(x)
        # The functions' forms keep the element type only where x has it.
        ft = t if t == self.dtype else None
        return fx if form == 1 else self.clamp(f"({fx})", ft)

    def bias_element(self):
        """A bias along C's rows or columns: `fz_biasN[i]` or `[j]`, a global
        of the element type that fz_runN fills."""
        role = self.pick("i", "j")
        self.bias_role = role
        size = self.loops[role].hi
        self.globals.append(f"static {self.dtype} fz_bias{self.n}[{size}];")
        return f"fz_bias{self.n}[{self.loops[role].name}]"

    def build_body(self):
        """The nest's loop tree; sets self.update (the statement holding the
        product), self.alpha and self.beta (for the bound)."""
        form, t = self.form, self.dtype
        c, a, b = self.access("C"), self.access("A"), self.access("B")
        self.beta = 1.0
        # The nest never reads C before storing to it: C starts as NaN (as
        # the poison), which a rewrite must not read either.
        self.c0_unread = False
        loops = [self.loops[r] for r in self.order]
        if form == "plain":
            self.prod, self.alpha = self.product(a, b)
            self.update = Stmt(self.pick(f"{c} += {self.prod};",
                                         f"{c} -= {self.prod};",
                                         f"{c} = {c} + {self.prod};",
                                         f"{c} = {c} - {self.prod};"), [c])
            return self.nest(loops, [self.update])
        if form == "acc":
            s = self.pick("s", "acc", "sum", "u")
            at = t
            if self.info.kind == "mixed_acc":
                # Float matrices summed in double are widened (rewritten);
                # double ones summed in float stay as written.
                at = "float" if t == "double" else "double"
                self.info.expect = "gemm" if at == "double" else "miss"
            prod, self.alpha = self.product(a, b)
            self.prod = prod
            self.update = Stmt(self.pick(f"{s} += {prod};",
                                         f"{s} = {s} + {prod};",
                                         f"{s} -= {prod};"))
            decl = self.pick("init", "assign", "outside")
            if self.info.kind == "liveout_acc":
                decl = "outside"
                self.post.append(f"fz_sink_d = {s};")
            store = self.rng.choice([0, 0, 0, 1, 2, 3, 4, 5])
            finish = []   # statements between the K loop and the store
            if self.info.kind == "store_branch":
                store = 5
            # A bias (C = s, valid nests): the accumulator's start or a term
            # of the store.
            bias = (self.bias_element() if store == 0 and
                    self.info.kind == "valid" and self.chance(0.6) else None)
            start = bias if bias and self.chance(0.5) else "0"
            self.acc_start, self.acc_type = start, at
            if decl == "init":
                pre = [Stmt(f"{at} {s} = {start};")]
                if bias and start == bias:
                    self.bias_start = (pre[0], s, bias, at)
            elif decl == "assign":
                pre = [Stmt(f"{at} {s};"), Stmt(f"{s} = {start};")]
            else:
                self.prelude.append(f"{at} {s};")
                pre = [Stmt(f"{s} = {start};")]
            if store < 3:
                st = [f"{c} = {s};", f"{c} += {s};", f"{c} -= {s};"][store]
                x, xt = s, at
                if bias and start == "0":
                    x = self.pick(f"({s} + {bias})", f"({bias} + {s})")
                    xt = "double" if "double" in (at, t) else "float"
                    # Or added under a flag after the sum (TNN's `if (bias)
                    # acc += bias[o];`), or read into a local ahead of it
                    # (tinygrad), drawn apart so that the other nests keep
                    # their draws.
                    side = random.Random(
                        "bias " + str(self.rng.getstate()[1][:8]))
                    how = side.choice(["term", "term", "flag", "local"])
                    if how == "flag":
                        flag = f"fz_has_bias{self.n}"
                        self.globals.append(
                            f"static int {flag} = {side.choice([0, 1])};")
                        finish.append(Stmt(f"if ({flag}) {s} += {bias};"))
                        x, xt = s, at
                    elif how == "local":
                        local = f"fz_bv{self.n}"
                        pre.append(Stmt(f"{t} {local} = {bias};"))
                        x = side.choice([f"({s} + {local})", f"({local} + {s})"])
                    st = f"{c} = {x};"
                if store == 0 and self.chance(0.6 if bias else 0.4):
                    # An activation: a clamp never widens the error; a
                    # function by its slope (render_run).
                    st = f"{c} = {self.activation(x, xt)};"
                self.beta = 0.0 if store == 0 else 1.0
                self.c0_unread = store == 0
                if store == 2 and self.info.expect == "gemm":
                    self.info.expect = "any"    # not a documented store
            else:
                al = self.pick(0.5, 2.0, -1.5)
                be = self.pick(0.0, 0.5, -2.0, 1.0)
                alt, bet = self.scalar(al, "alpha2"), self.scalar(be, "beta")
                st = (f"{c} = {alt} * {s} + {bet} * {c};" if store == 3 else
                      f"{c} = {c} * {bet} + {s} * {alt};")
                if store == 5:
                    # The reference BLAS's store: beta == 0 never reads C.
                    zero = (f"{s}" if self.info.kind == "store_branch"
                            else f"{alt} * {s}")
                    st = (f"if ({bet} == 0) {c} = {zero}; "
                          f"else {c} = {alt} * {s} + {bet} * {c};")
                    # Or as a `?:` (BetaChoices), drawn apart so that the
                    # other nests keep their draws.
                    side = random.Random(
                        "choice " + str(self.rng.getstate()[1][:8]))
                    if side.random() < 0.5:
                        st = (f"{c} = {bet} == 0 ? {zero} : "
                              f"{alt} * {s} + {bet} * {c};")
                    self.c0_unread = be == 0.0
                self.alpha *= abs(al)
                self.beta = abs(be)
            kloop = Block(loops[-1], [self.update], self.chance(0.3))
            return self.nest(loops[:-1],
                             pre + [kloop] + finish + [Stmt(st, [c])])
        if form == "hoist":
            h = self.pick("t", "tmp", "w")
            x, y = (a, b) if self.hoisted == "A" else (b, a)
            self.alpha = 1.0
            if self.chance(0.5):
                al = self.pick(0.5, -2.0, 1.5)
                x = f"{self.scalar(al, 'alpha')} * {x}"
                self.alpha = abs(al)
            self.update = Stmt(self.pick(f"{c} += {h} * {y};",
                                         f"{c} -= {y} * {h};"), [c])
            inner = Block(loops[-1], [self.update], self.chance(0.3))
            self.hoist = Stmt(f"{t} {h} = {x};")
            return self.nest(loops[:-1], [self.hoist, inner])
        # A zero-init or scaling of C fused into the nest (PolyBench gemm).
        prod, self.alpha = self.product(a, b)
        self.update = Stmt(f"{c} += {prod};", [c])
        init = self.rng.randint(0, 2)
        if init == 0:
            init_text, self.beta = f"{c} = 0;", 0.0
            self.c0_unread = True
        else:
            be = self.pick(0.0, 0.5, -1.5, 2.0)
            bt = self.scalar(be, "beta")
            init_text = f"{c} *= {bt};" if init == 1 else f"{c} = {bt} * {c};"
            self.beta = abs(be)
        if form == "fused_stmt":
            kloop = Block(loops[-1], [self.update], self.chance(0.3))
            return self.nest(loops[:-1], [Stmt(init_text, [c]), kloop])
        # [.., x, k, y]: a loop over y initialises C's row (or column) x
        # before the k loop accumulates into it.
        y = loops[-1]
        init_loop = Block(Loop(**{**y.__dict__, "pragma": ""}),
                          [Stmt(init_text, [c])], self.chance(0.3))
        inner = Block(loops[-2], [Block(y, [self.update], self.chance(0.3))],
                      self.chance(0.5))
        return self.nest(loops[:-2], [init_loop, inner])

    def bound_temporaries(self):
        """f2c: some inner loops' bounds through temporaries declared before
        the nest and set just before each loop (`i__2 = N;`); temp_live
        reads one after the nest."""
        blocks, todo = [], [self.tree]
        while todo:
            node = todo.pop()
            for child in node.body:
                if not isinstance(child, Block):
                    continue    # an unrolled loop prints its own headers
                if child.loop.shape == "for":
                    blocks.append(child)
                todo.append(child)
        live = self.info.kind == "temp_live"
        if live and not blocks:
            self.info.expect = "any"
        for n, block in enumerate(blocks):
            lp = block.loop
            if lp.temp or not (live or self.chance(0.2)):
                continue
            lp.temp, lp.temp_value = f"i__{n + 2}", lp.hi_text
            lp.hi_text = lp.temp
            self.prelude.append(f"long {lp.temp};")
            if live:
                self.post.append(f"fz_sink_l = {lp.temp};")
                live = False

    def nest(self, loops, body):
        """Wraps `body` in `loops`, outermost first."""
        for lp in reversed(loops):
            body = [Block(lp, body, len(body) > 1 or self.chance(0.2))]
        return body[0]

    def innermost(self):
        """The deepest Block holding the update."""
        node = self.tree
        while True:
            inner = [s for s in node.body
                     if isinstance(s, Block) and _holds(s, self.update)]
            if not inner:
                return node
            node = inner[-1]

    def branch_update(self):
        """Some valid nests of the plain and acc forms, with host operands
        and no loop shapes, get their update in both arms of branches
        (Unswitch.cpp): on one to three flags the nest never changes, which
        version the nest on every combination of their arms, or on a loop
        index, the obstacle (under a flag or not); or in the cases of a
        `switch` on a flag (SwitchCases.cpp): a case per value, a case and
        `default:`, or two labels on one case, some cases in braces with
        their `break` inside or after them, whose values no label lists run
        nothing. Drawn from a generator of their own, so that the other
        nests stay as they were."""
        info = self.info
        side = random.Random(str(self.rng.getstate()[1][:8]))
        if (info.kind != "valid" or self.form not in ("plain", "acc") or
                self.shapes or any(info.memkind) or side.random() >= 0.15):
            return
        upd = self.update
        varying = side.random() >= 0.7
        if varying:
            info.kind, info.expect = "varying_branch", "miss"
            lp = self.innermost().loop
            cond = f"{lp.name} < {side.randint(lp.lo, lp.hi - 1)}"
            upd.text = f"if ({cond}) {upd.text} else {upd.text}"
        else:
            info.kind = "invariant_branch"
        flags = side.choice([0, 1, 1, 2]) if varying else \
            side.choice([1, 1, 2, 3])
        for n in range(flags):
            flag = "flag" if n == 0 else f"flag{n + 1}"
            self.param(f"int {flag}", str(side.choice([0, 1, 2])))
            u = upd.text
            if side.random() < 0.4:
                upd.text = side.choice([
                    f"switch ({flag}) {{ case 0: {u} break; case 1: {u} }}",
                    f"switch ({flag}) {{ case 1: {u} break; default: {u} }}",
                    f"switch ({flag}) {{ case 0: case 1: {u} break; }}",
                    f"switch ({flag}) {{ case 0: {{ {u} break; }} "
                    f"case 1: {{ {u} }} }}",
                    f"switch ({flag}) {{ case 1: {{ {u} }} break; "
                    f"default: {{ {u} break; }} }}"])
            else:
                cond = side.choice([flag, f"{flag} == 0", f"!{flag}"])
                upd.text = f"if ({cond}) {{ {u} }} else {{ {u} }}"

    def guards_and_conjugates(self):
        """Some valid nests of the acc form, with host operands and no loop
        shapes, get the start from a bias as `T s = 0; if (gflag) s = bias;`
        (GuardedBias.cpp) or a factor as `std::real(std::conj(b))`
        (RealConj.cpp); or a near miss: the guard on a loop index, a product
        of two conjugates (complex arithmetic). Drawn from a generator of
        their own, so that the other nests stay as they were."""
        info = self.info
        side = random.Random("guards " + str(self.rng.getstate()[1][:8]))
        # A bias start is rare: most of those that are drawn get a guard.
        if (info.kind != "valid" or self.form != "acc" or self.shapes or
                any(info.memkind) or
                side.random() >= (0.7 if self.bias_start else 0.15)):
            return
        miss = side.random() < 0.5
        if self.bias_start and side.random() < 0.8:
            stmt, s, bias, at = self.bias_start
            if miss:
                info.kind, info.expect = "varying_guard", "miss"
                lp = self.loops[self.bias_role]
                cond = f"{lp.name} < {side.randint(lp.lo, lp.hi - 1)}"
            else:
                info.kind = "guarded_bias"
                self.param("int gflag", str(side.choice([0, 1])))
                cond = side.choice(["gflag", "gflag != 0", "!!gflag"])
            stmt.text = f"{at} {s} = 0; if ({cond}) {s} = {bias};"
            return
        a, b, upd = self.access("A"), self.access("B"), self.update
        if miss:
            info.kind, info.expect = "complex_product", "miss"
            upd.text = upd.text.replace(
                self.prod, f"std::real(std::conj({a}) * std::conj({b}))", 1)
        else:
            info.kind = "real_conj"
            upd.text = upd.text.replace(b, f"std::real(std::conj({b}))", 1)

    def apply_statement_misses(self):
        """The near-misses that change or add statements."""
        kind, t = self.info.kind, self.dtype
        block = self.innermost()
        body, upd = block.body, self.update
        a, c = self.access("A"), self.access("C")
        if kind == "assign":
            upd.text = f"{c} = {self.prod};"
        elif kind == "extra_term":
            extra = self.pick(f" + {a}", f" * {a}", f" + {lit(t, 1)}")
            upd.text = upd.text[:-1] + extra + ";"
        elif kind == "read_c":
            first = self.ops["C"].access(
                {r: str(lp.lo) for r, lp in self.loops.items()})
            upd.text = upd.text[:-1] + f" + {lit(t, 0.25)} * {first};"
        elif kind == "call":
            upd.text = upd.text.replace(
                a, self.pick(f"fz_twice({a})", f"fz_counted({a})"), 1)
        elif kind == "inline_call":
            how = self.rng.randint(0, 2)
            if how == 2 and upd.text.startswith(f"{c} += "):
                upd.text = f"fz_acc(&{c}, {upd.text[len(c) + 4:-1]});"
            else:
                upd.text = upd.text.replace(
                    a, [f"fz_id({a})", f"*fz_addr({a})"][how % 2], 1)
        elif kind == "alias_static":
            cop = self.ops["C"]
            upd.text = upd.text.replace(
                a, cop.access(self.subst(), cop.extra[0]), 1)
        elif kind == "control":
            lp = block.loop
            cut = self.rng.randint(lp.lo, lp.hi - 1)
            how = self.rng.randint(0, 3)
            if how == 3:
                upd.text = f"if ({a} > {lit(t, 0)}) {upd.text}"
            else:
                jump = ["continue", "break", "return"][how]
                if jump == "return":
                    # OpenMP forbids leaving a parallel region early.
                    self.loops[self.order[0]].pragma = ""
                body.insert(body.index(upd),
                            Stmt(f"if ({lp.name} == {cut}) {jump};"))
        elif kind == "write_bound":
            name, value = self.bound_write
            self.param(f"long {name}2", str(value))
            body.append(Stmt(f"{name} = {name}2;"))
        elif kind == "write_ld":
            # Smaller: later reads stay inside A's region.
            name, value = self.ld_write
            self.param(f"long {name}2", str(max(0, value - 1)))
            body.append(Stmt(f"{name} = {name}2;"))
        elif kind == "write_input":
            x = self.access(self.written)
            body.insert(body.index(upd), Stmt(f"{x} = -{x};"))
        elif kind == "write_ptr":
            body.append(Stmt("A = A2;"))
        elif kind == "increment":
            self.prelude.append("long cnt = 0;")
            body.append(Stmt(self.pick("cnt++;", "++cnt;", "cnt += 1;")))
            self.post.append("fz_sink_l = cnt;")
        elif kind == "other_write":
            body.append(Stmt(f"fz_sink_d = {a};"))
        elif kind == "double_update":
            body.insert(body.index(upd), Stmt(upd.text, upd.writes))
        if len(body) > 1:
            block.braces = True

    # -- loop shapes ----------------------------------------------------------
    def parent_of(self, node, target):
        """The Block whose body holds `target`, or None."""
        if not isinstance(node, Block):
            return None
        if any(child is target for child in node.body):
            return node
        for child in node.body:
            found = self.parent_of(child, target)
            if found:
                return found
        return None

    def block_of(self, lp):
        """The Block that runs loop `lp`."""
        todo = [self.tree]
        while todo:
            node = todo.pop()
            if isinstance(node, Block):
                if node.loop is lp:
                    return node
                todo.extend(node.body)
        return None

    def shape_loops(self):
        """Some loops of a valid nest written in other shapes over the same
        values: in tiles, as `while` loops, or unrolled with a remainder;
        the shape near-misses write one that does not cover the range once.
        """
        kind = self.info.kind
        if kind in SHAPE_MISSES:
            shapes = {"tile_gap": ["tile"], "tile_overlap": ["tile"],
                      "unroll_copy": ["unroll"],
                      "remainder_start": ["unroll"],
                      "iv_changed": ["while"], "jam_copy": ["jam"],
                      "lanes_cross": ["lanes"],
                      "lanes_missing": ["lanes"]}[kind]
        elif kind == "valid" and self.chance(0.4):
            shapes = self.rng.sample(["tile", "while", "unroll", "jam",
                                      "lanes"],
                                     self.pick(1, 1, 2))
            # Jammed copies stand alone: the other shapes rewrite headers.
            shapes = ["jam"] if "jam" in shapes else shapes
        else:
            return
        for shape in shapes:
            if getattr(self, "shape_" + shape)():
                self.shapes.append(shape)
        if "jam" in self.shapes and self.shape_registers():
            self.shapes.append("registers")

    def shape_tile(self):
        """A loop within tiles: `for (vt = lo; vt < hi; vt += T) for (v = vt;
        v < min(vt + T, hi); ++v)`, unclipped where T divides the range."""
        kind = self.info.kind
        roles = [r for r in self.order
                 if self.loops[r].hi - self.loops[r].lo >= 2 and
                 self.loops[r].shape == "for" and
                 self.block_of(self.loops[r])]
        if not roles:
            self.info.kind, self.info.expect = "valid", "gemm"
            return False
        lp = self.loops[self.pick(*roles)]
        extent = lp.hi - lp.lo
        tile = self.rng.randint(2, min(extent, 24))
        width = {"tile_gap": tile - 1, "tile_overlap": tile + 1}.get(kind,
                                                                   tile)
        clips = ["min", "cond"]
        if width == tile and extent % tile == 0:
            clips.append("")
        block = self.block_of(lp)
        outer = Loop(lp.role, lp.name + "t", lp.lo, lp.hi, lp.ctype,
                     lp.lo_text, lp.hi_text, pragma=lp.pragma, shape="tile",
                     tile=tile)
        lp.pragma = ""
        lp.shape, lp.of, lp.width = "point", outer.name, width
        lp.clip = self.pick(*clips)
        tiled = Block(outer, [Block(lp, block.body, block.braces)])
        parent = self.parent_of(self.tree, block)
        if parent is None:
            self.tree = tiled
        else:
            parent.body[parent.body.index(block)] = tiled
        return True

    def shape_while(self):
        """A loop as `v = lo; while (test) { body; step; }`."""
        roles = [r for r in self.order
                 if not self.loops[r].pragma and
                 self.loops[r].shape == "for" and
                 self.block_of(self.loops[r])]
        if not roles:
            self.info.kind, self.info.expect = "valid", "gemm"
            return False
        lp = self.loops[self.pick(*roles)]
        lp.shape = "while"
        # Half of them count down, stepped by their tests; drawn apart, so
        # that other seeds' programs stay as they were.
        side = random.Random("down " + str(self.rng.getstate()[1][:8]))
        if lp.lo_text.isdigit() and side.random() < 0.5:
            lp.shape = "down-test"
            lp.cond = side.choice([">", "!="]) if lp.hi > lp.lo else ">"
        if self.info.kind == "iv_changed":
            block = self.block_of(lp)
            block.body.append(Stmt(f"{lp.name} += 0;"))
        return True

    def shape_unroll(self):
        """The innermost loop, over the update alone, unrolled."""
        block = self.innermost()
        lp = block.loop
        if (block.body != [self.update] or lp.shape != "for" or
                self.form not in ("plain", "acc")):
            self.info.kind, self.info.expect = "valid", "gemm"
            return False
        count = self.pick(2, 3, 4)
        text = self.update.text
        target = text.split("=")[0].rstrip(" +-")
        sum_ok = (lp.name not in re.findall(r"\w+", target) and
                  ("+=" in text or "-=" in text or
                   text.startswith(f"{target} = {target} +")))
        remainder = self.pick("for", "for", "while")
        if self.info.kind == "valid" and (lp.hi - lp.lo) % count == 0 \
                and self.chance(0.3):
            remainder = "none"
        unrolled = Unrolled(lp, self.update, count,
                            sum_ok and self.chance(0.6), remainder,
                            self.info.kind == "unroll_copy",
                            self.info.kind == "remainder_start")
        parent = self.parent_of(self.tree, block)
        parent.body[parent.body.index(block)] = unrolled
        parent.braces = True
        return True

    def shape_jam(self):
        """A loop with nothing but loops down to the innermost, over the
        update alone, stepping by U over U copies of the update at v, v + 1,
        ..., v + U - 1 (unroll-and-jam); jam_copy writes the last copy at
        the offset of the one before."""
        inner = self.innermost()
        path, node = [], self.tree
        while node is not inner:
            path.append(node)
            node = next(s for s in node.body
                        if isinstance(s, Block) and _holds(s, self.update))
        roles = []
        for n, block in enumerate(path):
            lp = block.loop
            counts = [u for u in (2, 3, 4) if (lp.hi - lp.lo) % u == 0 and
                      lp.hi - lp.lo >= u]
            if (all(len(b.body) == 1 for b in path[n:]) and counts and
                    lp.shape == "for" and not lp.pragma and not lp.temp and
                    lp.cond != "!=" and
                    re.search(rf"(?<![\w.>]){lp.name}\b", self.update.text)):
                roles.append((block, counts))
        if (inner.body != [self.update] or self.form != "plain" or
                not roles):
            self.info.kind, self.info.expect = "valid", "gemm"
            return False
        block, counts = self.pick(*roles)
        lp, count = block.loop, self.pick(*counts)
        lp.shape, lp.step = "jam", f"v += {count}"
        shifts = list(range(count))
        if self.info.kind == "jam_copy":
            shifts[-1] = shifts[-2]
        inner.body = [self.update] + [
            Stmt(self.copy(self.update.text, lp, u),
                 [self.copy(w, lp, u) for w in self.update.writes])
            for u in shifts[1:]]
        inner.braces = True
        return True

    def shape_registers(self):
        """Some valid jammed nests (shape_jam) whose copies run in the K loop
        keep their block of C in register accumulators (Registers.cpp):
        `T fz_rN_0 = 0, ...;` before the K loop (or started by a statement
        each, or by one chain `fz_rN_0 = fz_rN_1 = 0;`), `fz_rN_u += x;` in
        it for the update of copy u, and `C(copy u) += fz_rN_u;` after it;
        or started at their elements and stored back (`T fz_rN_0 = C(copy
        0), ...;`, then `C(copy u) = fz_rN_u;`), or started at zero and
        stored (`C(copy u) = fz_rN_u;`, which drops C's start); started at
        zero where declared, they may be one array (`T fz_rN[U] = {0};`,
        LaneRegisters.cpp). The
        near miss (registers_twice) adds the last register to its element
        twice. Drawn from a generator of their own, so that the other nests
        stay as they were."""
        side = random.Random("registers " + str(self.rng.getstate()[1][:8]))
        inner = self.innermost()
        parent = self.parent_of(self.tree, inner)
        if (self.info.kind != "valid" or inner.loop.role != "k" or
                parent is None or side.random() >= 0.5):
            return False
        parts = []
        for stmt in inner.body:
            m = re.fullmatch(r"(.+?) ([+-])= (.+);", stmt.text)
            if not m or re.search(rf"(?<![\w.>]){inner.loop.name}\b",
                                  m.group(1)):
                return False
            parts.append((m.group(1), m.group(2), m.group(3), stmt.writes))
        if side.random() < 0.25:
            self.info.kind, self.info.expect = "registers_twice", "miss"
        # Started where declared, by a statement each, by one chain, at
        # their elements (`T r = C; ...; C = r;`, yzhaiustc's kernels), or
        # at zero and stored (`C = r;`).
        start = side.choice(["declared", "each", "chain", "loaded",
                             "zeroed"])
        if self.info.kind == "registers_twice" and start in ("loaded",
                                                               "zeroed"):
            start = "declared"
        array = start in ("declared", "zeroed") and side.random() < 0.4
        regs = [f"fz_r{self.n}[{u}]" if array else f"fz_r{self.n}_{u}"
                for u in range(len(parts))]
        inner.body = [Stmt(f"{r} {sign}= {x};")
                      for r, (_, sign, x, _) in zip(regs, parts)]
        assign = "=" if start in ("loaded", "zeroed") else "+="
        stores = [Stmt(f"{c} {assign} {r};", list(w))
                  for r, (c, _, _, w) in zip(regs, parts)]
        if self.info.kind == "registers_twice":
            stores.append(Stmt(stores[-1].text, list(stores[-1].writes)))
        at = next(n for n, node in enumerate(parent.body) if node is inner)
        if start == "loaded":
            starts = [Stmt(f"{self.dtype} " +
                           ", ".join(f"{r} = {c}"
                                     for r, (c, _, _, _) in zip(regs, parts))
                           + ";")]
        elif array:
            starts = [Stmt(f"{self.dtype} fz_r{self.n}[{len(regs)}] = {{0}};")]
        elif start in ("declared", "zeroed"):
            starts = [Stmt(f"{self.dtype} " +
                           ", ".join(f"{r} = 0" for r in regs) + ";")]
        else:
            starts = [Stmt(f"{self.dtype} " + ", ".join(regs) + ";")]
            starts += ([Stmt(f"{r} = 0;") for r in regs] if start == "each"
                       else [Stmt(" = ".join(regs) + " = 0;")])
        parent.body[at:at + 1] = starts + [inner] + stores
        parent.braces = True
        self.update = inner.body[0]
        return True

    def copy(self, text, lp, shift):
        """`text` with loop `lp`'s variable moved on by `shift`."""
        if shift == 0:
            return text
        return re.sub(rf"(?<![\w.>]){lp.name}\b", f"({lp.name} + {shift})",
                      text)

    def shape_lanes(self):
        """The innermost loop of an accumulation into a scalar that starts
        at 0, unrolled by U into U lanes (PartialSums.cpp): each copy sums
        into a lane of `T s_lane[U]`, the remainder into the accumulator or
        lane 0, and the lanes are added to the accumulator after the loops:
        the same sum in another order."""
        block = self.innermost()
        lp = block.loop
        if (block.body != [self.update] or lp.shape != "for" or
                self.form != "acc" or getattr(self, "acc_start", "") != "0"
                or self.shapes):
            self.info.kind, self.info.expect = "valid", "gemm"
            return False
        kind = self.info.kind
        unrolled = Unrolled(lp, self.update, self.pick(2, 3, 4, 8), False,
                            "for")
        unrolled.lanes = {"lanes_cross": "cross",
                          "lanes_missing": "missing"}.get(kind, "ok")
        unrolled.lanes_rest = self.pick("acc", "lane0")
        unrolled.lanes_type = self.acc_type
        parent = self.parent_of(self.tree, block)
        parent.body[parent.body.index(block)] = unrolled
        parent.braces = True
        return True

    def shape_copies(self):
        """Some valid nests of the acc form, with no other shape, get the
        loop around the accumulation stepped by U with one accumulator per
        copy, as llm.c's matmul_forward (CopyLanes.cpp): `T s_copy[U];`,
        loops over the copies that start, sum into and store each, the sum's
        inside the K loop. The near miss: each copy also reads copy 0's
        accumulator (times 0, which changes nothing finite), which ties the
        copies together. Drawn from a generator of their own, so that the
        other nests stay as they were."""
        info = self.info
        side = random.Random("copies " + str(self.rng.getstate()[1][:8]))
        if (info.kind != "valid" or self.form != "acc" or self.shapes or
                self.batched or side.random() >= 0.25):
            return
        kblock = self.innermost()
        block = self.parent_of(self.tree, kblock)
        lp = block.loop if block else None
        s, at = re.match(r"(\w+)", self.update.text).group(1), self.acc_type
        if (not lp or lp.shape != "for" or lp.outside or lp.pragma or
                lp.temp or kblock.loop.shape != "for" or
                kblock.body != [self.update] or len(block.body) not in (3, 4)
                or block.body[-2] is not kblock or
                not block.body[0].text.startswith(f"{at} {s}")):
            return
        # The statement before the K loop starts the accumulator (not a
        # bias read into a local).
        started = re.match(rf".*\b{s} = (.*);$", block.body[-3].text)
        extent = lp.hi - lp.lo
        counts = [u for u in (2, 3, 4, 8) if extent % u == 0 and u < extent]
        if not counts or not started:
            return
        u = side.choice(counts)
        cross = side.random() < 0.3
        if cross:
            info.kind, info.expect = "copies_cross", "miss"
        v, x = lp.name, lp.name + "x"
        lane = f"{s}_copy[{x}]"

        def moved(text):
            text = re.sub(rf"(?<![\w.>]){v}\b", f"({v}0 + {x})", text)
            return re.sub(rf"(?<![\w.>]){s}\b", lane, text)

        def over_copies(body):
            return Block(Loop("c", x, 0, u, "int", "0", str(u)), body)
        start = started.group(1)
        update = moved(self.update.text)
        if cross:
            update = update[:-1] + f" + 0 * {s}_copy[0];"
        store = block.body[-1]
        outer = Loop(lp.role, v + "0", lp.lo, lp.hi, lp.ctype, lp.lo_text,
                     lp.hi_text, shape="tile", tile=u)
        copies = Block(outer, [
            Stmt(f"{at} {s}_copy[{u}];"),
            over_copies([Stmt(f"{lane} = {moved(start)};")]),
            Block(kblock.loop, [over_copies([Stmt(update)])], True),
            over_copies([Stmt(moved(store.text),
                              [moved(w) for w in store.writes])])], True)
        parent = self.parent_of(self.tree, block)
        parent.body[parent.body.index(block)] = copies
        self.update = copies.body[2].body[0].body[0]
        self.shapes.append("copies")

    def late_init(self):
        """Some valid nests of the hoist form declare the hoisted factor
        without initialiser, C89's way, at the top of the outermost loop's
        body or before the nest, and set it where it was declared
        (LateInit.cpp). Drawn from a generator of their own, so that the
        other nests stay as they were."""
        side = random.Random("late " + str(self.rng.getstate()[1][:8]))
        if (self.form != "hoist" or self.info.kind != "valid" or
                side.random() >= 0.4):
            return
        decl, value = self.hoist.text.split(" = ", 1)
        t, h = decl.rsplit(" ", 1)
        self.hoist.text = f"{h} = {value}"
        if side.random() < 0.5:
            self.prelude.append(f"{t} {h};")
        else:
            self.tree.body.insert(0, Stmt(f"{t} {h};"))
            self.tree.braces = True
        self.shapes.append("late")

    def shape_side(self):
        """Some valid nests of the plain and acc forms, with no other shape,
        get a statement beside the product in its innermost loop that sums
        into an array of its own, `fz_sideN[v] += x;` with x a constant or
        an element of A or B (SplitOff.cpp: the launcher computes the product,
        then the statement runs in a copy of the loops); or a near miss
        (SIDE_KINDS). The array is dumped bit for bit: the statement runs
        in the loops' order. Drawn from a generator of their own, so that
        the other nests stay as they were."""
        info = self.info
        side = random.Random("side " + str(self.rng.getstate()[1][:8]))
        if (info.kind != "valid" or self.form not in ("plain", "acc") or
                self.shapes or side.random() >= 0.2):
            return
        block = self.innermost()
        kinds = ["side", "side", "side", "side_c"]
        if self.form == "acc":
            kinds[-1] = "side_acc"
        kind = side.choice(kinds)
        if kind != "side":
            info.kind, info.expect = kind, SIDE_KINDS[kind]
        role = side.choice([r for r in self.order])
        lp = self.loops[role]
        name, t = f"fz_side{self.n}", self.dtype
        read = side.choice(["", "A", "B"]) if kind == "side" else "C"
        x = {"": lit(t, 0.5), "A": self.access("A"),
             "B": self.access("B"), "C": self.access("C")}[read]
        if kind == "side_acc":
            x = re.match(r"(\w+)", self.update.text).group(1)
            read = ""
        self.globals.append(f"static {t} {name}[{lp.hi}];")
        self.side = (name, lp.hi, t, read)
        text = side.choice([f"{name}[{lp.name}] += {x};",
                            f"{name}[{lp.name}] = {name}[{lp.name}] + {x};"])
        block.body.insert(side.choice([0, len(block.body)]), Stmt(text))
        block.braces = True
        self.shapes.append("side")

    def shape_walk(self):
        """Some valid nests of the plain form, with no other shape, read an
        input through a pointer that walks the innermost loop
        (PointerWalk.cpp): `const T *pa = &A[...];` at the loop's first
        index, before the loop, and `*pa` bumped by the loop's stride after
        the update (`pa += lda;`), or `*pa++` where the stride is 1; a raw
        pointer's walk is sometimes tested for null after its declaration
        (`if (!pa) return;`: A's test). The near miss "walk_skip" bumps it
        in odd iterations only, which no affine offset describes. Drawn from a generator of their own, so
        that the other nests stay as they were."""
        info = self.info
        side = random.Random("walk " + str(self.rng.getstate()[1][:8]))
        if (info.kind != "valid" or self.form != "plain" or self.shapes or
                side.random() >= 0.4):
            return
        block = self.innermost()
        lp = block.loop
        roles = [r for r in "AB"
                 if self.ops[r].storage in ("ptr", "vec", "struct") and
                 not self.ops[r].bytes and not self.ops[r].extra and
                 lp.role in self.ops[r].vars]
        if (block.body != [self.update] or lp.shape != "for" or lp.pragma or
                lp.temp or not roles):
            return
        role = side.choice(roles)
        op = self.ops[role]
        stride = op.stride_texts[op.vars.index(lp.role)]
        name = f"p{role.lower()}{self.n}"
        start = self.subst()
        start[lp.role] = lp.lo_text
        miss = side.random() < 0.25
        inline = stride == "1" and not miss and side.random() < 0.5
        self.update.text = self.update.text.replace(
            self.access(role), f"*{name}++" if inline else f"*{name}", 1)
        parent = self.parent_of(self.tree, block)
        at = parent.body.index(block)
        parent.body.insert(at, Stmt(
            f"const {op.ctype} *{name} = &{op.access(start)};"))
        # A raw pointer's walk may be tested for null first (NullTests.cpp):
        # the test is the operand's, and never taken.
        if op.storage == "ptr" and not miss and side.random() < 0.3:
            parent.body.insert(at + 1, Stmt(side.choice([
                f"if (!{name}) return;",
                f"if ({name} == nullptr) {{ return; }}"])))
        parent.braces = True
        if not inline:
            bump = f"{name} += {stride};"
            block.body.append(Stmt(f"if ({lp.name} & 1) {bump}" if miss
                                   else bump))
            block.braces = True
        if miss:
            info.kind, info.expect = "walk_skip", "miss"
        self.shapes.append("walk")

    def emit_lanes(self, node, depth, out):
        pad, lp, u = "  " * depth, node.loop, node.count
        v, h = lp.name, lp.hi_text
        s, op, term = re.match(r"(\w+)( \+=| -=| = \w+ \+) (.*);$",
                               node.update.text).groups()
        lane = f"{s}_lane"

        def update(k, shift, factor=""):
            target = f"{lane}[{k}]"
            return (f"{target}{op.replace(s, target)} {factor}"
                    f"{self.copy(term, lp, shift)};")
        if self.chance(0.5):
            out.append(f"{pad}{node.lanes_type} {lane}[{u}] = {{0}};")
        else:
            out.append(f"{pad}{node.lanes_type} {lane}[{u}];")
            out.append(pad + " = ".join(f"{lane}[{k}]" for k in range(u)) +
                       " = 0;")
        if not lp.outside:
            out.append(f"{pad}{lp.ctype} {v};")
        out.append(f"{pad}for ({v} = {lp.lo_text}; {v} + {u} <= {h}; "
                   f"{v} += {u}) {{")
        for k in range(u):
            cross = node.lanes == "cross" and k == u - 1
            out.append(f"{pad}  " +
                       update(k, k, f"{lane}[{k - 1}] * " if cross else ""))
        out.append(pad + "}")
        rest = node.update.text if node.lanes_rest == "acc" else update(0, 0)
        out.append(f"{pad}for (; {v} < {h}; ++{v})")
        out.append(f"{pad}  {rest}")
        summed = range(u - 1) if node.lanes == "missing" else range(u)
        out.append(f"{pad}{s} += " +
                   " + ".join(f"{lane}[{k}]" for k in summed) + ";")

    def emit_unrolled(self, node, depth, out, twin):
        if node.lanes:
            return self.emit_lanes(node, depth, out)
        pad, lp, upd, u = "  " * depth, node.loop, node.update, node.count
        v, h = lp.name, lp.hi_text
        shifts = list(range(u))
        if node.wrong_copy:
            shifts[-1] = shifts[-2]

        def stmt(text, writes, shift, level):
            if twin:
                out.extend("  " * level + self.copy(w, lp, shift) + " = 1;"
                           for w in writes)
            else:
                out.append("  " * level + self.copy(text, lp, shift))
        if not lp.outside:
            out.append(f"{pad}{lp.ctype} {v};")
        test = f"{v} < {h}" if node.remainder == "none" else \
            f"{v} + {u} <= {h}"
        out.append(f"{pad}for ({v} = {lp.lo_text}; {test}; {v} += {u}) {{")
        if node.sum and not twin:
            # `C = C + x`: the right side starts with the left (whose
            # subscript may itself hold ` + `).
            m = re.match(r"(.*?)( \+=| -=| = \1 \+) (.*);$", upd.text)
            terms = " + ".join(f"({self.copy(m.group(3), lp, k)})"
                               for k in shifts)
            out.append(f"{pad}  {m.group(1)}{m.group(2)} {terms};")
        elif node.sum:
            stmt(upd.text, upd.writes, 0, depth + 1)
        else:
            for k in shifts:
                stmt(upd.text, upd.writes, k, depth + 1)
        out.append(pad + "}")
        if node.remainder == "none":
            return
        start = f"{v} = {lp.lo_text}" if node.restart else ""
        if node.remainder == "for":
            out.append(f"{pad}for ({start}; {v} < {h}; ++{v})")
            stmt(upd.text, upd.writes, 0, depth + 1)
            return
        if start:
            out.append(f"{pad}{start};")
        out.append(f"{pad}while ({v} < {h}) {{")
        stmt(upd.text, upd.writes, 0, depth + 1)
        out.append(f"{pad}  ++{v};")
        out.append(pad + "}")

    # -- printing -------------------------------------------------------------
    def emit_tree(self, node, depth, out, twin):
        """Appends the nest, or its twin, to `out`."""
        pad = "  " * depth
        if isinstance(node, Stmt):
            if twin:
                out.extend(f"{pad}{w} = 1;" for w in node.writes)
            else:
                out.append(pad + node.text)
            return
        if twin and not _writes(node):
            return
        if isinstance(node, Unrolled):
            return self.emit_unrolled(node, depth, out, twin)
        if node.loop.shape in ("while", "down-test"):
            lp = node.loop
            down = lp.shape == "down-test"
            start = (f"{lp.name} = {lp.hi_text}" if lp.outside
                     else f"{lp.ctype} {lp.name} = {lp.hi_text}")
            out += [pad + "{", f"{pad}  {start if down else lp.start()};",
                    f"{pad}  {lp.header()} {{"]
            for child in node.body:
                self.emit_tree(child, depth + 2, out, twin)
            if not down:
                out.append(f"{pad}    {lp.stepping()};")
            out += [pad + "  }", pad + "}"]
            return
        if node.loop.temp:
            out.append(f"{pad}{node.loop.temp} = {node.loop.temp_value};")
        if node.loop.pragma and not twin:
            out.append(pad + node.loop.pragma + self.private_clause(node))
        start = len(out)
        out.append(pad + node.loop.header())
        items = 0
        for child in node.body:
            before = len(out)
            self.emit_tree(child, depth + 1, out, twin)
            # A bound temporary's assignment is a statement of its own.
            items += (len(out) > before) * (
                1 + bool(isinstance(child, Block) and child.loop.temp))
        if node.braces or items != 1:
            out[start] += " {"
            out.append(pad + "}")

    def private_clause(self, node):
        """` private(...)` for an OpenMP parallel loop: the scalars declared
        before the nest without a value (accumulators, bound temporaries,
        hoisted factors, induction variables), each thread's own, as a
        correct OpenMP program has them; shared, the threads would race."""
        if "omp parallel for" not in node.loop.pragma:
            return ""
        names = [m.group(1) for decl in self.prelude
                 for m in re.finditer(r"(?:^|;)\s*[\w:]+(?:\s+[\w:]+)*\s+"
                                      r"(\w+)(?=;)", decl)
                 if m.group(1) != node.loop.name]
        return f" private({', '.join(names)})" if names else ""

    def views(self):
        """The operands' parameters and their arguments in fz_callN, which
        makes each view from its region rA, rB or rC."""
        out = []
        restrict_ok = self.info.kind == "valid"
        for role in "ABC":
            op = self.ops[role]
            t, r, p = op.ctype, f"r{role}", op.pname
            cq = "const " if op.const else ""
            origin = f"{r} + {GUARD + op.base}"
            if op.offset_text == "off":
                self.param("long off", str(GUARD))
            if op.storage == "ptr":
                rq = "__restrict " if restrict_ok and self.chance(0.2) else ""
                if op.offset_text:
                    origin = f"{r} + {op.base}"
                out.append((f"{cq}{t} *{rq}{p}", origin))
            elif op.storage in ("vec", "varr"):
                # A container of the region's cells, copied back after.
                lo = op.base + (0 if op.offset_text else GUARD)
                hi = op.base + GUARD + op.span
                kind, end = (("vector", f"{r} + {hi}") if op.storage == "vec"
                             else ("valarray", str(hi - lo)))
                self.setup.append(f"std::{kind}<{t}> v{role}({r} + {lo}, "
                                  f"{end});")
                self.teardown.append(f"std::copy(std::begin(v{role}), "
                                     f"std::end(v{role}), {r} + {lo});")
                out.append((f"{cq}std::{kind}<{t}> &{p}", f"v{role}"))
            elif op.storage == "struct":
                rows, cols = (self.loops[v].hi for v in LOGICAL[role])
                sb = op.strides[0] if op.vars[0] == "b" else 0
                mt = "FzMatf" if t == "float" else "FzMatd"
                self.setup.append(f"{mt} s{role} = {{{rows}, {cols}, "
                                  f"{op.strides[-2]}, {sb}, {origin}}};")
                if op.by == ".":
                    out.append((self.pick(f"{mt} {p}", f"const {mt} &{p}"),
                                f"s{role}"))
                else:
                    out.append((f"const {mt} *{p}", f"&s{role}"))
            elif op.storage == "arr":
                inner = "".join(f"[{d}]" for d in op.shape[1:])
                cast = f"reinterpret_cast<{t} (*){inner}>({origin})"
                out.append((self.pick(f"{cq}{t} {p}[{op.shape[0]}]{inner}",
                                      f"{cq}{t} (*{p}){inner}"), cast))
            elif op.storage == "member":
                tile = f"FzTile{self.n}{role}"
                dims = "".join(f"[{d}]" for d in op.shape)
                self.globals.append(f"struct {tile} {{ {t} c{dims}; }};")
                cast = f"reinterpret_cast<{tile} *>({origin})"
                out.append((f"{cq}{tile} &{p}", f"*{cast}") if op.by == "."
                           else (f"{cq}{tile} *{p}", cast))
            else:
                # A global or local array, copied in and out by the nest's
                # function around the nest.
                dims = "".join(f"[{d}]" for d in op.shape)
                out.append((f"{cq}{t} *{p}", origin))
                copy_in = f"memcpy({op.name}, {p}, sizeof {op.name});"
                if op.storage == "glob":
                    self.globals.append(f"static {t} {op.name}{dims};")
                    self.prelude.insert(0, copy_in)
                else:
                    self.prelude[:0] = [f"{t} {op.name}{dims};", copy_in]
                if not op.const:
                    self.post.insert(0, f"memcpy({p}, {op.name}, "
                                        f"sizeof {op.name});")
        if self.info.kind == "write_ptr":
            a = self.ops["A"]
            cq = "const " if a.const else ""
            self.param(f"{cq}{a.ctype} *A2", out[0][1])
        return out

    def render(self, lines):
        """Appends fz_nestN, its twin fz_maskN, fz_callN and fz_runN to
        `lines`; records the line and column of the outermost for."""
        n, info = self.n, self.info
        params = self.views() + self.params
        sig = ", ".join(d for d, _ in params)
        lines.extend(self.globals)
        # Some valid nests are the text of an object-like macro used once
        # (R's MATPROD_BODY): gemm-opt rewrites a copy of it at the use,
        # where its remark is.
        macro = self.chance(0.12) and info.kind == "valid" and not self.side
        for twin in (False, True):
            lines.append(f"static void fz_{'mask' if twin else 'nest'}{n}"
                         f"({sig}) {{")
            lines.extend("  " + p for p in self.prelude)
            body = []
            self.emit_tree(self.tree, 1, body, twin)
            if not twin and macro and not any(
                    l.lstrip().startswith("#") or "//" in l for l in body):
                name = f"FZ_BODY{n}"
                width = max(len(l) for l in body) + 1
                body = ([f"#define {name} \\"] +
                        [l.ljust(width) + "\\" for l in body[:-1]] +
                        [body[-1], f"  {name}", f"#undef {name}"])
                self.ask_precision(body, len(body) - 2)
                # A peeled outer loop's nest is reported at the use too.
                info.line = len(lines) + len(body) - 1
                info.inner_line = 0
                info.col = 3
            elif not twin:
                self.ask_precision(body, _loop_lines(body)[0])
                fors = _loop_lines(body)
                info.line = len(lines) + fors[0] + 1
                info.inner_line = len(lines) + fors[1] + 1
                info.col = len(body[fors[0]]) - len(body[fors[0]].lstrip()) + 1
            lines.extend(body)
            lines.extend("  " + p for p in self.post
                         if not twin or p.startswith("memcpy"))
            lines.append("}")
            if not twin:
                info.end = len(lines)
        ts = [self.ops[r].ctype for r in "ABC"]
        args = ", ".join(a for _, a in params)
        lines.append(f"static void fz_call{n}(bool twin, {ts[0]} *rA, "
                     f"{ts[1]} *rB, {ts[2]} *rC) {{")
        lines.extend("  " + s for s in self.setup)
        lines += ["  if (twin)", f"    fz_mask{n}({args});", "  else",
                  f"    fz_nest{n}({args});"]
        lines.extend("  " + s for s in self.teardown)
        lines.append("}")
        self.render_run(lines)

    def ask_precision(self, body, at):
        """Puts the nest's precision pragma above its first loop, body[at],
        and above the pragmas and comments there."""
        if not self.info.precision:
            return
        while at and body[at - 1].lstrip().startswith(("#pragma", "//")):
            at -= 1
        pad = body[at][:len(body[at]) - len(body[at].lstrip())]
        asked = [f"{pad}#pragma gemm_opt precision({self.info.precision})"]
        if self.precision_comment:
            asked.append(f"{pad}// products at {self.info.precision}")
        body[at:at] = asked

    def render_run(self, lines):
        """fz_runN: regions, inputs, the written cells, the poison, the
        bound's scale, the call, and the dump."""
        n, G, ops = self.n, GUARD, self.ops
        L = lines.append
        regions = {r: (ops[r].ctype, self.spans[r]) for r in self.spans}
        creg = ops["C"].region
        L(f"static void fz_run{n}() {{")
        for r, (t, span) in regions.items():
            L(f"  {t} *h{r} = fz_alloc<{t}>({span + 2 * G});")
            if r != "C":
                L(f"  fz_fill(h{r} + {G}, {span}, "
                  f"{self.rng.getrandbits(48)}ull);")
        tc = ops["C"].ctype
        L(f"  {tc} *mC = fz_zeros<{tc}>({self.spans[creg] + 2 * G});")
        h = {r: f"h{ops[r].region}" for r in "ABC"}
        L(f"  fz_call{n}(true, {h['A']}, {h['B']}, mC);")
        seed = self.rng.getrandbits(48)
        if creg == "C" and not (self.c0_unread and
                                self.info.kind == "valid"):
            L(f"  fz_fill_masked(hC + {G}, mC + {G}, {self.spans['C']}, "
              f"{seed}ull);")
        norms = []
        for r in "ABC":
            op = ops[r]
            origin = G + op.base + sum(self.loops[v].lo * s
                                       for v, s in zip(op.vars, op.strides))
            dims = [(1, 0)] * (3 - len(op.vars)) + [
                (self.loops[v].hi - self.loops[v].lo, s)
                for v, s in zip(op.vars, op.strides)]
            norms.append(f"std::sqrt(fz_norm2({h[r]} + {origin}, " +
                         ", ".join(f"{e}, {s}" for e, s in dims) + "))")
        L(f"  double scale = {self.alpha!r} * {norms[0]} * {norms[1]} + "
          f"{self.beta!r} * {norms[2]};")
        # The bias: its norm once per row (column) it is broadcast over.
        cells = {r: self.loops[r].hi - self.loops[r].lo
                 for r in ("b", "i", "j") if r in self.loops}
        if self.bias_role:
            size = self.loops[self.bias_role].hi
            L(f"  fz_fill(fz_bias{n}, {size}, "
              f"{self.rng.getrandbits(48)}ull);")
            times = 1
            for r, e in cells.items():
                times *= 1 if r == self.bias_role else e
            L(f"  scale += std::sqrt(fz_norm2(fz_bias{n}, 1, 0, 1, 0, {size}, "
              f"1) * {times});")
        # A function carries the error by its slope (at most 1.2, GELU's
        # 1.13), and its libm rounds apart from the CPU reference's fp64 by
        # ulps of a result no larger than |x| + 1.
        if self.has_function:
            total = 1
            for e in cells.values():
                total *= e
            L(f"  scale = 1.2 * scale + std::sqrt({total}.0);")
        if self.side:
            L(f"  fz_fill({self.side[0]}, {self.side[1]}, "
              f"{self.rng.getrandbits(48)}ull);")
        L("  fz_sink_l = 0;")
        L("  fz_sink_d = 0;")
        for i, r in enumerate("ABC"):
            if r in regions:
                L(f"  {regions[r][0]} *d{r} = fz_place(h{r}, "
                  f"{regions[r][1] + 2 * G}, fz_memkind[{3 * n + i}]);")
        d = {r: f"d{ops[r].region}" for r in "ABC"}
        L(f"  fz_call{n}(false, {d['A']}, {d['B']}, {d['C']});")
        for i, r in enumerate("ABC"):
            if r in regions:
                L(f"  fz_unplace(h{r}, d{r}, {regions[r][1] + 2 * G}, "
                  f"fz_memkind[{3 * n + i}]);")
        K = self.loops["k"].hi - self.loops["k"].lo
        L(f'  printf("nest {n} {self.bound_type()} {K} %.17g\\n", scale);')
        L(f"  fz_dump_written(h{creg}, mC, {self.spans[creg] + 2 * G});")
        for r, (t, span) in regions.items():
            mask = "mC" if r == creg else f"({t} *)nullptr"
            L(f'  fz_dump_cells("{r}", h{r}, {mask}, {span + 2 * G});')
        if self.side:
            L(f'  fz_dump_cells("S", {self.side[0]}, ({self.side[2]} *)nullptr, '
              f'{self.side[1]});')
        L('  printf("s %ld %016llx\\n", fz_sink_l, fz_bits(fz_sink_d));')
        L("  fflush(stdout);")
        for r in regions:
            L(f"  free(h{r});")
        L("  free(mC);")
        L("}")

    def bound_type(self):
        """The precision whose bound C keeps (test/e2e/compare.py's
        bound_of): tf32 or 3xtf32 where the pragma lets the nest run on
        tensor cores, else f32 where any operand or the accumulator is
        float."""
        if self.tensor_cores():
            return self.info.precision
        types = {op.ctype for op in self.ops.values()} | {self.dtype}
        return "f32" if "float" in types or self.info.kind == "mixed_acc" \
            else "f64"

    def summary(self):
        parts = [self.dtype, self.form, "".join(self.order),
                 "x".join(str(self.loops[r].hi - self.loops[r].lo)
                          for r in self.order)]
        parts += [f"{r}:{op.storage}[{','.join(op.vars)}]"
                  for r, op in self.ops.items()]
        if self.info.kind != "valid":
            parts.append(self.info.kind)
        if self.info.precision:
            parts.append(f"precision({self.info.precision})")
        parts += self.shapes
        return " ".join(parts)


def _loop_lines(body):
    """The indices of the lines of `body` that open a loop."""
    return [i for i, l in enumerate(body)
            if l.lstrip().startswith(("for", "while"))]


def _prod(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def _holds(node, stmt):
    if isinstance(node, Unrolled):
        return node.update is stmt
    return node is stmt or (isinstance(node, Block) and
                            any(_holds(s, stmt) for s in node.body))


def _writes(node):
    if isinstance(node, Stmt):
        return bool(node.writes)
    if isinstance(node, Unrolled):
        return bool(node.update.writes)
    return any(_writes(s) for s in node.body)


@dataclass
class Program:
    text: str
    nests: list               # NestInfo


def nest_count(seed):
    return random.Random(f"gemm-opt fuzz {seed}").randint(8, 16)


def generate(seed, only=None, big=False):
    """The program of `seed`; with `only`, just its nest number `only`, drawn
    exactly as in the full program (a reproducer). `big` allows larger
    nests (for the GPU)."""
    indices = range(nest_count(seed)) if only is None else [only]
    gens = [NestGen(random.Random(f"gemm-opt fuzz {seed}:{i}"), i,
                    big).generate() for i in indices]
    with open(HARNESS) as f:
        harness = f.read()
    only_text = f" --only {only}" if only is not None else ""
    lines = [f"// Generated by test/fuzz/gen.py --seed {seed}{only_text}:",
             "// random GEMM loop nests and near-misses for gemm-opt's",
             "// differential fuzzer (test/fuzz/fuzz.py).", ""]
    lines += harness.rstrip("\n").split("\n")
    memkind = len(lines)
    lines.append("")   # the table of memory kinds, once they are drawn
    for g in gens:
        lines.append("")
        g.render(lines)
    lines += ["", "int main() {"]
    lines += [f"  fz_run{g.n}();" for g in gens]
    lines += ["  return 0;", "}", ""]
    kinds = [0] * (3 * (max(indices) + 1))
    for g in gens:
        kinds[3 * g.n:3 * g.n + 3] = g.info.memkind
    lines[memkind] = memkind_line(kinds)
    return Program("\n".join(lines), [g.info for g in gens])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--only", type=int, help="just this nest")
    parser.add_argument("--big", action="store_true",
                        help="larger nests, for the GPU")
    parser.add_argument("-o", dest="output", help="output file (stdout)")
    parser.add_argument("--meta", action="store_true",
                        help="print the nests' metadata as JSON instead")
    args = parser.parse_args(argv)
    prog = generate(args.seed, args.only, args.big)
    text = prog.text
    if args.meta:
        text = json.dumps([n.__dict__ for n in prog.nests], indent=1) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
