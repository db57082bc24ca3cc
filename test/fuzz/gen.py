#!/usr/bin/env python3
"""Random GEMM loop nests and near-misses for gemm-opt's differential fuzzer.

`generate(seed)` returns a self-contained C++ program holding several nests,
each in its own static function `fz_nestN`, run by `fz_runN` on its own
random inputs and printed for the driver (fuzz.py, compared by
compare_fuzz.py). Every nest is either a GEMM in one of the forms gemm-opt
recognises, or a near-miss that it must leave alone (or handle correctly).

Every operand lives in a flat *region* of the harness: GUARD poisoned cells,
the cells the operand's view can reach, GUARD poisoned cells. A view gives
the nest its operand in the storage under test (a pointer with run-time
leading dimensions, a fixed-size array parameter, global or local, a
std::vector, a struct member), so one set of dump routines serves them all.

Which cells of C a nest writes comes from its *twin* `fz_maskN`: the same
function with every statement that writes C replaced by `<that element> = 1`
and everything else dropped, run on a zeroed copy of C's region. The twin is
printed from the same loop tree as the nest, so it cannot disagree with the
nest's indexing. Dropping control flow only adds cells (a superset), which
are then compared norm-wise like every written cell. Unwritten cells of C are
poisoned before the nest runs.

Program output, per nest (one line each):
    nest <N> <f32|f64> <K> <scale>      header; eps type, K and scale of the
                                        bound ||x - y|| <= 4 (K+2) eps scale
    w <count> <v>...                    written cells of C, %.17g, in order
    x <region> <tok>...                 every other cell of every region as a
                                        hex bit pattern ('.' = written cell),
                                        runs as tok*count
    s <long> <double bits>              live-out values of near-misses

Loops outside the nests under test are one loop deep, and twins only store
constants, so gemm-opt sees no other candidate nest.

Usage: gen.py --seed S [--only N] [--gpu] [-o prog.cpp] [--meta]
"""

import argparse
import json
import random
import sys
from dataclasses import dataclass, field

GUARD = 16
POISON = {"float": "0x7fc0feedu", "double": "0x7ff80000deadbeefull"}
SMALL_PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43]
LOOP_NAMES = {"b": ["b", "q", "bt", "z"], "i": ["i", "r", "ii", "row"],
              "j": ["j", "c", "jj", "col"], "k": ["k", "l", "p", "kk"]}
EXTENT_PARAM = {"b": "NB", "i": "M", "j": "N", "k": "K"}
# Logical index vars of each operand: A is M x K, B is K x N, C is M x N.
LOGICAL = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j")}
FLAT = ("ptr", "vec", "struct")
ARRAYS = ("arr", "glob", "local", "member")
# Pointer-based views: the only ones whose data can live in GPU memory.
DEVICE_OK = ("ptr", "struct", "arr", "member")

# Near-misses, with weights, and what gemm-opt should do with each: "miss"
# (left as written), "gemm" (rewritten; the run-time check falls back where
# needed) or "any".
NEAR_MISSES = {
    "wrong_index": (3, "miss"), "assign": (2, "miss"),
    "extra_term": (2, "miss"), "nonrect": (2, "miss"),
    "write_bound": (1, "miss"), "write_ld": (1, "miss"),
    "write_input": (1, "miss"), "write_ptr": (1, "miss"),
    "read_c": (1, "miss"), "call": (1, "miss"), "control": (3, "miss"),
    "liveout_iv": (1, "miss"), "liveout_acc": (1, "miss"),
    "increment": (1, "miss"), "other_write": (1, "miss"),
    "mixed": (2, "miss"), "mixed_acc": (2, "any"),
    "alias_runtime": (2, "gemm"), "alias_static": (1, "miss"),
    "c_overlap": (1, "any"),
}


def lit(ctype, value):
    """A floating literal of `value` in `ctype`."""
    text = repr(float(value))
    return text + "f" if ctype == "float" else text


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

    def header(self):
        v, h = self.name, self.hi_text
        init = (f"{v} = {self.lo_text}" if self.outside
                else f"{self.ctype} {v} = {self.lo_text}")
        cond = {"<": f"{v} < {h}", ">": f"{h} > {v}",
                "<=": f"{v} <= {h} - 1", ">=": f"{h} - 1 >= {v}",
                "!=": f"{v} != {h}"}[self.cond]
        step = self.step.replace("v", v)
        return f"for ({init}; {cond}; {step})"


@dataclass
class Stmt:
    text: str
    writes: list = field(default_factory=list)  # C elements it stores to


@dataclass
class Block:
    """A loop and what it runs; `body` holds Blocks and Stmts."""
    loop: Loop
    body: list
    braces: bool = False


@dataclass
class Operand:
    role: str                 # 'A', 'B' or 'C'
    ctype: str
    storage: str              # see FLAT and ARRAYS
    vars: list                # loop roles in storage order, outer first
    name: str = ""
    const: bool = False
    region: str = ""
    base: int = 0             # the view's origin, in cells of the region
    strides: list = None      # per entry of vars
    stride_texts: list = None
    shape: list = None        # array storages
    offset_text: str = ""     # flat index prefix reaching past the guards
    style: int = 0            # spelling of flat indices
    by: str = "."             # '.' or '->' for struct and member views
    extra: list = field(default_factory=list)  # other var lists it is read at

    def is_array(self):
        return self.storage in ARRAYS

    def access(self, subst, vars=None):
        """The element at loop roles -> expressions `subst`."""
        vars = vars or self.vars
        idx = [subst[v] for v in vars]
        if self.is_array():
            return self.name + "".join(f"[{e}]" for e in idx)
        terms = []
        for e, st in zip(idx, self.stride_texts):
            if st == "1":
                terms.append(e)
            elif self.style % 2:
                terms.append(f"{st} * {e}")
            else:
                terms.append(f"{e} * {st}")
        if self.style >= 2 and len(terms) >= 2:
            terms = terms[:-2] + [terms[-1], terms[-2]]
        if self.style == 4 and len(idx) >= 2:
            # The index macro: FZ_IX(row, col, ld).
            terms = terms[:-2] + [f"FZ_IX({idx[-2]}, {idx[-1]}, "
                                  f"{self.stride_texts[-2]})"]
        if self.offset_text:
            terms.insert(0, self.offset_text)
        base = self.name
        if self.storage == "struct":
            base = f"{self.name}{self.by}a"
        elif self.storage == "vec" and self.style == 3:
            base = f"{self.name}.data()"
        return f"{base}[{' + '.join(terms)}]"


@dataclass
class NestInfo:
    index: int
    line: int = 0             # of the outermost 'for'
    col: int = 0
    expect: str = "gemm"
    kind: str = "valid"
    form: str = ""
    memkind: list = field(default_factory=lambda: [0, 0, 0])
    summary: str = ""


class NestGen:
    """Draws one nest from a seeded Random and prints its C++."""

    def __init__(self, rng, index, big):
        self.rng, self.n, self.big = rng, index, big
        self.params = []      # (declaration, argument) of fz_nestN
        self.setup, self.teardown = [], []   # fz_callN around the call
        self.prelude, self.post = [], []     # fz_nestN around the nest
        self.globals = []
        self.info = NestInfo(index)

    # -- choices --------------------------------------------------------------
    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    def extent(self):
        r = self.rng.random()
        if r < 0.08:
            return 1
        if r < 0.40:
            return self.rng.choice(SMALL_PRIMES)
        if r < 0.82:
            return self.rng.randint(20, 130)
        return self.rng.randint(130, 400)

    def param(self, decl, arg):
        self.params.append((decl, arg))

    # -- the nest -------------------------------------------------------------
    def generate(self):
        rng = self.rng
        info = self.info
        self.dtype = self.pick("float", "double")
        if self.chance(0.4):
            names = list(NEAR_MISSES)
            weights = [NEAR_MISSES[k][0] for k in names]
            info.kind = rng.choices(names, weights)[0]
            info.expect = NEAR_MISSES[info.kind][1]
        kind = info.kind
        forms = ["plain", "plain", "acc", "hoist", "fused_stmt", "fused_loop"]
        if kind in ("assign", "extra_term", "read_c", "call", "alias_static",
                    "write_input"):
            forms = ["plain"]
        elif kind in ("liveout_acc", "mixed_acc"):
            forms = ["acc"]
        self.form = info.form = rng.choice(forms)
        self.batched = self.chance(0.3)
        self.choose_order()
        self.choose_extents()
        self.choose_operands()
        self.mutate_indices()
        self.layout()
        self.choose_headers()
        self.tree = self.build_body()
        self.apply_statement_misses()
        self.choose_memkind()
        info.summary = self.summary()
        return self

    def choose_order(self):
        """Loop roles outer to inner, as the form requires."""
        rng, form = self.rng, self.form
        roles = ["i", "j", "k"]
        if form == "acc" or form == "fused_stmt":
            outer = rng.sample(["i", "j"], 2)
            order = outer + ["k"]
        elif form == "hoist":
            self.hoisted = self.pick("A", "B")
            inner = "j" if self.hoisted == "A" else "i"
            order = rng.sample([r for r in roles if r != inner], 2) + [inner]
        elif form == "fused_loop":
            x = self.pick("i", "j")
            order = [x, "k", "j" if x == "i" else "i"]
        else:
            order = rng.sample(roles, 3)
        if self.batched:
            # Anywhere for a plain nest; outside the statements' level else.
            last = 4 if form == "plain" else (
                2 if form == "fused_loop" else len(order) - 1)
            order.insert(rng.randint(0, min(last, len(order))), "b")
        self.order = order

    def choose_extents(self):
        rng = self.rng
        ext = {r: self.extent() for r in "ijk"}
        ext["b"] = rng.randint(1, 6) if self.batched else 1
        budget = 2e7 if self.big else 2e6
        cap = 400000 if self.big else 100000
        while (ext["b"] * ext["i"] * ext["j"] * ext["k"] > budget or
               ext["b"] * max(ext["i"], ext["k"]) * max(ext["j"], ext["k"])
               > cap):
            r = max("ijk", key=lambda r: ext[r])
            ext[r] = max(1, ext[r] // 2)
        self.loops = {}
        for role in self.order:
            lo = 0 if self.chance(0.75) else rng.randint(1, 4)
            name = rng.choice(LOOP_NAMES[role])
            self.loops[role] = Loop(role, name, lo, lo + ext[role])

    def choose_operands(self):
        rng, kind = self.rng, self.info.kind
        self.ops = {}
        for role in "ABC":
            ctype = self.dtype
            storage = rng.choice(["ptr", "ptr", "ptr", "vec", "struct", "arr",
                                  "arr", "glob", "local", "member"])
            if kind in ("alias_runtime", "write_ptr") and role in "AC":
                storage = "ptr"
            if kind in ("write_ld", "c_overlap") and role == "C":
                storage = self.pick("ptr", "vec", "struct")
            vars = list(LOGICAL[role])
            if self.chance(0.5):
                vars.reverse()            # column-major / transposed
            if self.batched and (role == "C" or self.chance(0.8)):
                vars.insert(0, "b")
            op = Operand(role, ctype, storage, vars, region=role)
            op.const = role != "C" and self.chance(0.5)
            op.style = rng.randint(0, 4)
            op.by = self.pick(".", "->")
            self.ops[role] = op
        if kind == "mixed":
            op = self.ops[self.pick("A", "B", "C")]
            op.ctype = "float" if self.dtype == "double" else "double"
        if kind == "write_input":
            self.ops["A"].const = False
        if kind == "alias_runtime":
            src = self.ops[self.pick("A", "B")]
            src.const = self.chance(0.5)
            self.ops["C"].region = src.region
        self.names()

    def names(self):
        for role, op in self.ops.items():
            op.name = {"ptr": role, "vec": role, "arr": role, "local": role,
                       "struct": "m" + role.lower(),
                       "member": "t" + role.lower(),
                       "glob": f"fz_g{self.n}_{role.lower()}"}[op.storage]

    def mutate_indices(self):
        """Index-map near-misses: a wrong loop in one access, or C read as
        an input."""
        kind = self.info.kind
        if kind == "wrong_index":
            role = self.pick("A", "B", "C")
            op = self.ops[role]
            swaps = {"A": {"k": "j", "i": "j"}, "B": {"k": "i", "j": "i"},
                     "C": {"j": "k", "i": "k"}}[role]
            old = self.pick(*swaps)
            op.vars = [swaps[old] if v == old else v for v in op.vars]
        elif kind == "alias_static":
            c, a = self.ops["C"], self.ops["A"]
            # C stands in for A: read at A's index map through C's view.
            c.extra.append([v for v in (["b"] if "b" in c.vars else []) +
                            list(LOGICAL["A"])])

    def layout(self):
        """Strides, array shapes, spans and regions."""
        rng, kind = self.rng, self.info.kind
        hi = {r: lp.hi for r, lp in self.loops.items()}
        self.spans = {}
        for role, op in self.ops.items():
            accesses = [op.vars] + op.extra
            if op.is_array():
                dims = len(op.vars)
                op.shape = []
                for d in range(dims):
                    need = max(hi[acc[d]] for acc in accesses)
                    pad = 0 if self.chance(0.5) else rng.randint(1, 3)
                    op.shape.append(need + pad)
                op.strides = [1] * dims
                for d in range(dims - 2, -1, -1):
                    op.strides[d] = op.strides[d + 1] * op.shape[d + 1]
                if op.storage == "local" and _prod(op.shape) * 8 > 256 * 1024:
                    op.storage = "glob"
                    self.names()
                span = _prod(op.shape)
            else:
                self.flat_strides(op, accesses, hi)
                span = max(sum((hi[v] - 1) * s for v, s in zip(acc, op.strides))
                           for acc in accesses) + 1
            op.span = span
        for role, op in self.ops.items():
            if op.region == role:
                self.spans[role] = op.span
        c = self.ops["C"]
        if c.region != "C":
            # Aliased at run time: C at the start of the input's region
            # (they overlap) or past its end (same allocation, disjoint).
            if self.chance(0.3):
                c.base = self.spans[c.region] + rng.randint(0, 5)
            self.spans[c.region] = max(self.spans[c.region], c.base + c.span)
        for op in self.ops.values():
            if op.storage in ("ptr", "vec") and self.chance(0.25):
                op.offset_text = self.pick(str(GUARD), "off")

    def flat_strides(self, op, accesses, hi):
        rng, kind = self.rng, self.info.kind
        inner = max(hi[acc[-1]] for acc in accesses)
        if op.role == "C":
            ld = inner + (0 if self.chance(0.4) else rng.randint(1, 7))
            if kind == "c_overlap":
                ld = rng.randint(0, max(0, inner - 1))
        else:
            how = rng.choices(["gt", "eq", "lt", "zero"], [4, 3, 2, 1])[0]
            ld = {"gt": inner + rng.randint(1, 7), "eq": inner,
                  "lt": rng.randint(1, max(1, inner - 1)), "zero": 0}[how]
        strides = {op.vars[-1]: 1}
        if len(op.vars) >= 2:
            strides[op.vars[-2]] = ld
        matrix = (hi[op.vars[-2]] - 1) * ld + inner if len(op.vars) >= 2 \
            else inner
        if op.vars[0] == "b":
            if op.role == "C":
                sb = matrix + (0 if self.chance(0.5) else rng.randint(1, 9))
            else:
                sb = self.pick(0, matrix, matrix + rng.randint(1, 9),
                               rng.randint(0, matrix) | 1)
            strides["b"] = sb
        elif self.batched and op.role != "C" and self.chance(0.5):
            # Broadcast over the batch through a run-time zero stride.
            op.vars.insert(0, "b")
            strides["b"] = 0
        op.strides = [strides[v] for v in op.vars]
        # Per-dimension spellings: a literal, a parameter, a struct field.
        lower = op.role.lower()
        texts = []
        for v, s in zip(op.vars, op.strides):
            if v == op.vars[-1]:
                texts.append("1")
                continue
            pname = ("s" if v == "b" else "ld") + lower
            if op.storage == "struct":
                field_ = "sb" if v == "b" else "ld"
                texts.append(f"{op.name}{op.by}{field_}")
            elif kind == "write_ld" and op.role == "C" and v != "b":
                texts.append(pname)
                self.ld_param = (pname, s)
                self.param(f"long {pname}", str(s))
            elif self.chance(0.35):
                texts.append(str(s))
            else:
                texts.append(pname)
                self.param(f"{self.pick('int', 'long')} {pname}", str(s))
        op.stride_texts = texts
        if op.style == 4 and len(op.vars) < 2:
            op.style = 0

    def choose_headers(self):
        rng, kind = self.rng, self.info.kind
        types = ["int", "int", "long", "std::size_t", "unsigned"]
        fields = {}   # role -> struct field holding its hi
        for op in self.ops.values():
            if op.storage == "struct":
                r0, r1 = LOGICAL[op.role]
                fields.setdefault(r0, f"{op.name}{op.by}rows")
                fields.setdefault(r1, f"{op.name}{op.by}cols")
        for role in self.order:
            lp = self.loops[role]
            lp.ctype = rng.choice(types)
            lp.cond = rng.choice(["<", "<", ">", "<=", ">=", "!="])
            lp.step = rng.choice(["++v", "v++", "v += 1", "v = v + 1"])
            if lp.lo and self.chance(0.5):
                lp.lo_text = f"{role}0"
                self.param(f"int {role}0", str(lp.lo))
            else:
                lp.lo_text = str(lp.lo)
            how = rng.choice(["lit", "param", "param", "field"])
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
            # C89 style: every induction variable declared up front.
            for lp in self.loops.values():
                lp.outside = True
            self.prelude.append(" ".join(
                f"{lp.ctype} {lp.name};" for lp in self.loops.values()))
        outer = self.loops[self.order[0]]
        if (self.chance(0.15) and outer.role != "k" and kind != "liveout_iv"
                and not outer.outside):
            outer.pragma = self.pick("#pragma omp parallel for",
                                     "#pragma omp parallel for "
                                     "schedule(static)")

    def make_nonrect(self):
        """The bound of an inner loop follows an outer one (k < i + 1)."""
        pairs = [(u, v) for a, u in enumerate(self.order)
                 for v in self.order[a + 1:]
                 if "b" not in (u, v) and
                 self.loops[u].hi - self.loops[u].lo <=
                 self.loops[v].hi - self.loops[v].lo]
        if not pairs:
            self.info.kind = "control"
            return
        u, v = self.pick(*pairs)
        lu, lv = self.loops[u], self.loops[v]
        lv.hi_text = f"{lu.name} + {lv.lo - lu.lo + 1}"
        lv.cond = "<"

    def choose_memkind(self):
        """GPU builds place pointer views of rewritable nests in device or
        managed memory; near-misses stay in host memory, where the original
        loop can run."""
        info = self.info
        if (info.kind == "valid" and
                all(op.storage in DEVICE_OK for op in self.ops.values())):
            info.memkind = [self.rng.choice([0, 1, 1, 2]) for _ in "ABC"]

    # -- statements -----------------------------------------------------------
    def subst(self):
        return {r: lp.name for r, lp in self.loops.items()}

    def acc(self, role):
        return self.ops[role].access(self.subst())

    def product(self, a, b):
        """A * B with the spellings of alpha; returns (text, |alpha|)."""
        t = self.dtype
        form = self.rng.randint(0, 6)
        if form <= 1:
            return (f"{a} * {b}" if form == 0 else f"{b} * {a}"), 1.0
        if form == 2:
            return f"({a}) * ({b})", 1.0
        alpha = self.pick(0.5, 1.5, -2.0, 0.75, -1.25)
        al = self.alpha_text(alpha)
        return [f"{al} * {a} * {b}", f"{a} * {b} * {al}",
                f"{al} * ({a} * {b})", f"{a} * {al} * {b}"][form - 3], abs(alpha)

    def alpha_text(self, value, name="alpha"):
        if self.chance(0.5):
            if not any(d.endswith(f" {name}") for d, _ in self.params):
                self.param(f"{self.dtype} {name}", lit(self.dtype, value))
                self.values = getattr(self, "values", {})
                self.values[name] = value
            if self.values.get(name) == value:
                return name
        text = lit(self.dtype, value)
        return f"({text})" if value < 0 else text

    def build_body(self):
        """The loop tree of the nest, and alpha and beta for the bound."""
        form, t = self.form, self.dtype
        c, a, b = self.acc("C"), self.acc("A"), self.acc("B")
        self.values = {}
        self.beta = 1.0
        loops = [self.loops[r] for r in self.order]
        if form == "plain":
            prod, self.alpha = self.product(a, b)
            op = self.pick("+=", "-=", "=+", "+=")
            text = {"+=": f"{c} += {prod};", "-=": f"{c} -= {prod};",
                    "=+": f"{c} = {c} + {prod};"}[op]
            self.update = Stmt(text, [c])
            return self.nest(loops, [self.update])
        if form == "acc":
            s = self.pick("s", "acc", "sum", "u")
            at = t
            if self.info.kind == "mixed_acc":
                at = "float" if t == "double" else "double"
            prod, self.alpha = self.product(a, b)
            upd = self.pick("+=", "=", "-=")
            self.update = Stmt({"+=": f"{s} += {prod};",
                                "=": f"{s} = {s} + {prod};",
                                "-=": f"{s} -= {prod};"}[upd])
            kloop = Block(loops[-1], [self.update], self.chance(0.3))
            decl = self.pick("init", "assign", "outside")
            if self.info.kind == "liveout_acc":
                decl = "outside"
                self.post.append(f"fz_sink_d = {s};")
            pre = []
            if decl == "init":
                pre.append(Stmt(f"{at} {s} = 0;"))
            elif decl == "assign":
                pre += [Stmt(f"{at} {s};"), Stmt(f"{s} = 0;")]
            else:
                self.prelude.append(f"{at} {s};")
                pre.append(Stmt(f"{s} = 0;"))
            store = self.rng.randint(0, 4)
            if store == 0:
                st, self.beta = f"{c} = {s};", 0.0
            elif store == 1:
                st = f"{c} += {s};"
            elif store == 2:
                st = f"{c} -= {s};"
            else:
                al, be = self.pick(0.5, 2.0, -1.5), self.pick(0.0, 0.5, -2.0,
                                                              1.0)
                alt, bet = self.alpha_text(al, "alpha2"), self.alpha_text(
                    be, "beta")
                st = (f"{c} = {alt} * {s} + {bet} * {c};" if store == 3 else
                      f"{c} = {c} * {bet} + {s} * {alt};")
                self.alpha *= abs(al)
                self.beta = abs(be)
            return self.nest(loops[:-1], pre + [kloop, Stmt(st, [c])])
        if form == "hoist":
            h = self.pick("t", "tmp", "w")
            x, y = (a, b) if self.hoisted == "A" else (b, a)
            self.alpha = 1.0
            if self.chance(0.5):
                al = self.pick(0.5, -2.0, 1.5)
                x = f"{self.alpha_text(al)} * {x}"
                self.alpha = abs(al)
            pre = Stmt(f"{t} {h} = {x};")
            self.update = Stmt(self.pick(f"{c} += {h} * {y};",
                                         f"{c} -= {y} * {h};"), [c])
            inner = Block(loops[-1], [self.update], self.chance(0.3))
            return self.nest(loops[:-1], [pre, inner])
        # Fused zero-init or scaling of C: the PolyBench gemm form.
        prod, self.alpha = self.product(a, b)
        self.update = Stmt(f"{c} += {prod};", [c])
        be = self.pick(0.0, 0.5, -1.5, 2.0)
        init = self.rng.randint(0, 2)
        if init == 0:
            init_text, self.beta = f"{c} = 0;", 0.0
        else:
            bt = self.alpha_text(be, "beta")
            init_text = (f"{c} *= {bt};" if init == 1 else
                         f"{c} = {bt} * {c};")
            self.beta = abs(be)
        if form == "fused_stmt":
            kloop = Block(loops[-1], [self.update], self.chance(0.3))
            return self.nest(loops[:-1], [Stmt(init_text, [c]), kloop])
        # fused_loop: [.., x, k, y]; the init loop over y opens the body of
        # the loop outside k.
        y = loops[-1]
        init_loop = Block(Loop(**{**y.__dict__, "pragma": ""}),
                          [Stmt(init_text, [c])], self.chance(0.3))
        inner = Block(loops[-2], [Block(y, [self.update], self.chance(0.3))],
                      self.chance(0.5))
        return self.nest(loops[:-2], [init_loop, inner])

    def nest(self, loops, body):
        """Wraps `body` in `loops`, outermost first."""
        for lp in reversed(loops):
            body = [Block(lp, body, len(body) > 1 or self.chance(0.2))]
        return body[0]

    def innermost(self):
        """The body list of the deepest loop holding the update."""
        node = self.tree
        while True:
            nxt = [s for s in node.body if isinstance(s, Block) and
                   _holds(s, self.update)]
            if not nxt:
                return node.body
            node = nxt[-1]

    def apply_statement_misses(self):
        kind, t = self.info.kind, self.dtype
        body = self.innermost()
        upd = self.update
        a = self.acc("A")
        inner = next(lp for lp in reversed(
            [self.loops[r] for r in self.order]) if _in_loop(self.tree, lp,
                                                             body))
        if kind == "assign":
            c = upd.writes[0]
            rhs = upd.text.split("=", 1)[1].strip().lstrip("+")
            rhs = rhs[len(c) + 3:] if rhs.startswith(c + " + ") else rhs
            upd.text = f"{c} = {rhs.strip()}"
        elif kind == "extra_term":
            extra = self.pick(f" + {a}", f" * {a}", f" + {lit(t, 1)}")
            upd.text = upd.text[:-1] + extra + ";"
        elif kind == "read_c":
            c = self.ops["C"]
            first = c.access({r: str(lp.lo) for r, lp in self.loops.items()})
            upd.text = upd.text[:-1] + f" + {lit(t, 0.25)} * {first};"
        elif kind == "call":
            upd.text = upd.text.replace(a, f"fz_twice({a})", 1)
        elif kind == "alias_static":
            c = self.ops["C"]
            ca = c.access(self.subst(), c.extra[0])
            upd.text = upd.text.replace(a, ca, 1)
        elif kind == "control":
            v = inner.name
            cut = self.rng.randint(inner.lo, inner.hi - 1)
            how = self.rng.randint(0, 3)
            if how == 3:
                upd.text = f"if ({a} > {lit(t, 0)}) {upd.text}"
            else:
                jump = ["continue", "break", "return"][how]
                body.insert(body.index(upd),
                            Stmt(f"if ({v} == {cut}) {jump};"))
        elif kind == "write_bound":
            name, value = self.bound_write
            self.param(f"long {name}2", str(value))
            body.append(Stmt(f"{name} = {name}2;"))
        elif kind == "write_ld":
            name, value = self.ld_param
            self.param(f"long {name}2", str(max(0, value - 1)))
            body.append(Stmt(f"{name} = {name}2;"))
        elif kind == "write_input":
            body.insert(body.index(upd), Stmt(f"{a} = -{a};"))
        elif kind == "write_ptr":
            op = self.ops["A"]
            cq = "const " if op.const else ""
            self.param(f"{cq}{op.ctype} *A2", "__A2__")
            body.append(Stmt("A = A2;"))
        elif kind == "increment":
            self.prelude.append("long cnt = 0;")
            body.append(Stmt(self.pick("cnt++;", "++cnt;", "cnt += 1;")))
            self.post.append("fz_sink_l = cnt;")
        elif kind == "other_write":
            body.append(Stmt(f"fz_sink_d = {a};"))
        for stmt in body:
            if isinstance(stmt, Stmt) and not stmt.text.endswith(";"):
                stmt.text += ";"

    # -- printing -------------------------------------------------------------
    def emit_tree(self, node, depth, out, twin):
        """Appends the nest (or its twin) to `out` as (text, depth) lines."""
        pad = "  " * depth
        if isinstance(node, Stmt):
            if not twin:
                out.append(pad + node.text)
            else:
                out.extend(f"{pad}{w} = 1;" for w in node.writes)
            return
        if twin and not _writes(node):
            return
        if node.loop.pragma and not twin:
            out.append(pad + node.loop.pragma)
        out.append(pad + node.loop.header() + (" {" if node.braces else ""))
        start = len(out)
        for child in node.body:
            self.emit_tree(child, depth + 1, out, twin)
        if not node.braces and len(out) - start != 1:
            out.insert(start, out.pop(start - 1) + " {")
            node = Block(node.loop, node.body, True)
        if node.braces:
            out.append(pad + "}")

    def declarations(self):
        """Parameters for the operands' views, and the harness code that
        builds the views from regions rA, rB, rC."""
        out = []
        for role in "ABC":
            op = self.ops[role]
            t, r = op.ctype, f"r{role}"
            cq = "const " if op.const else ""
            origin = f"{r} + {GUARD} + {op.base}"
            if op.storage == "ptr":
                rq = " __restrict" if self.chance(0.2) and \
                    self.info.kind not in ("alias_runtime",) else ""
                if op.offset_text:
                    origin = f"{r} + {op.base}"
                out.append((f"{cq}{t} *{rq}{op.name}", origin))
                if op.offset_text == "off":
                    if not any(d == "long off" for d, _ in self.params):
                        self.param("long off", str(GUARD))
            elif op.storage == "vec":
                v = f"v{role}"
                lo, hi = ((0, 2 * GUARD + op.span) if op.offset_text else
                          (GUARD, GUARD + op.span))
                self.setup.append(f"std::vector<{t}> {v}({r} + {op.base} + "
                                  f"{lo}, {r} + {op.base} + {hi});")
                self.teardown.append(f"std::copy({v}.begin(), {v}.end(), "
                                     f"{r} + {op.base} + {lo});")
                out.append((f"{cq}std::vector<{t}> &{op.name}", v))
                if op.offset_text == "off":
                    if not any(d == "long off" for d, _ in self.params):
                        self.param("long off", str(GUARD))
            elif op.storage == "struct":
                s = f"s{role}"
                rows, cols = (self.loops[v].hi for v in LOGICAL[role])
                sb = op.strides[0] if op.vars[0] == "b" else 0
                ld = op.strides[-2] if len(op.vars) >= 2 else 0
                mt = "FzMatf" if t == "float" else "FzMatd"
                self.setup.append(f"{mt} {s} = {{{rows}, {cols}, {ld}, {sb}, "
                                  f"{origin}}};")
                if op.by == ".":
                    out.append((self.pick(f"{mt} {op.name}",
                                          f"const {mt} &{op.name}"), s))
                else:
                    out.append((f"const {mt} *{op.name}", f"&{s}"))
            elif op.storage in ("arr",):
                dims = "".join(f"[{d}]" for d in op.shape[1:])
                cast = f"reinterpret_cast<{t} (*){dims}>({origin})"
                out.append((self.pick(f"{cq}{t} {op.name}[{op.shape[0]}]{dims}",
                                      f"{cq}{t} (*{op.name}){dims}"), cast))
            elif op.storage == "member":
                tile = f"FzTile{self.n}{role}"
                dims = "".join(f"[{d}]" for d in op.shape)
                self.globals.append(f"struct {tile} {{ {t} c{dims}; }};")
                op_name = op.name
                cast = f"reinterpret_cast<{tile} *>({origin})"
                if op.by == ".":
                    out.append((f"{cq}{tile} &{op_name}", f"*{cast}"))
                else:
                    out.append((f"{cq}{tile} *{op_name}", cast))
            else:  # glob, local: copied in and out by the nest function
                dims = "".join(f"[{d}]" for d in op.shape)
                x = f"x{role}"
                out.append((f"{cq}{t} *{x}", origin))
                if op.storage == "glob":
                    self.globals.append(f"static {t} {op.name}{dims};")
                else:
                    self.prelude.insert(0, f"{t} {op.name}{dims};")
                self.prelude.insert(1 if op.storage == "local" else 0,
                                    f"memcpy({op.name}, {x}, "
                                    f"sizeof {op.name});")
                if not op.const:
                    self.post.insert(0, f"memcpy({x}, {op.name}, "
                                        f"sizeof {op.name});")
        # The member access spelling is fixed by declarations().
        for op in self.ops.values():
            if op.storage == "member":
                pass
        return out

    def summary(self):
        parts = [self.dtype, self.form, "".join(self.order),
                 "x".join(str(self.loops[r].hi - self.loops[r].lo)
                          for r in self.order)]
        for role, op in self.ops.items():
            parts.append(f"{role}:{op.storage}/{','.join(op.vars)}")
        if self.info.kind != "valid":
            parts.append(f"near-miss={self.info.kind}")
        return " ".join(parts)

    def eps_type(self):
        types = {op.ctype for op in self.ops.values()} | {self.dtype}
        if self.info.kind == "mixed_acc":
            types.add("float")
        return "f32" if "float" in types else "f64"

    def render(self, lines):
        """Appends this nest's functions to `lines`, recording the line of
        the outermost for."""
        n, info = self.n, self.info
        views = self.declarations()
        # Member views need their struct access spelled as 'tX.c' / 'tX->c';
        # the names were chosen before the storage was known to be final.
        for op in self.ops.values():
            if op.storage == "member":
                op.name = f"t{op.role.lower()}{op.by}c"
        self.tree = self.build_body_again()
        params = views + self.params
        sig = ", ".join(d for d, _ in params)
        lines.extend(self.globals)
        for twin in (False, True):
            fn = f"fz_mask{n}" if twin else f"fz_nest{n}"
            lines.append(f"static void {fn}({sig}) {{")
            for p in self.prelude:
                lines.append("  " + p)
            body = []
            self.emit_tree(self.tree, 1, body, twin)
            if not twin:
                first = next(i for i, l in enumerate(body)
                             if l.lstrip().startswith("for"))
                info.line = len(lines) + first + 1
                info.col = len(body[first]) - len(body[first].lstrip()) + 1
            lines.extend(body)
            for p in self.post if not twin else [
                    p for p in self.post if p.startswith("memcpy")]:
                lines.append("  " + p)
            lines.append("}")
        # fz_callN: views from regions, then the nest or its twin.
        ts = [self.ops[r].ctype for r in "ABC"]
        lines.append(f"static void fz_call{n}(bool twin, {ts[0]} *rA, "
                     f"{ts[1]} *rB, {ts[2]} *rC) {{")
        lines.extend("  " + s for s in self.setup)
        args = ", ".join("rA + 16" if a == "__A2__" and False else
                         (views[0][1] if a == "__A2__" else a)
                         for _, a in params)
        lines.append(f"  if (twin)\n    fz_mask{n}({args});\n  else\n"
                     f"    fz_nest{n}({args});")
        lines.extend("  " + s for s in self.teardown)
        lines.append("}")
        self.render_run(lines)

    def build_body_again(self):
        """Re-prints the statements once view names are final (member views
        change their spelling); the random choices replay from a saved
        state so the nest stays the same."""
        state = self.rng.getstate()
        self.rng.setstate(self.body_state)
        params, prelude, post = list(self.params), list(self.prelude), \
            list(self.post)
        self.params = self.params[:self.params_before_body]
        self.prelude = self.prelude_before_body[:] + [
            p for p in prelude if p not in self.prelude_before_body and
            p.startswith(("memcpy", f"{self.ops['A'].ctype} ", "float ",
                          "double "))
            and p not in self.body_prelude]
        self.post = [p for p in post if p.startswith("memcpy")] + \
            self.post_before_body[:]
        tree = self.build_body()
        self.tree = tree
        self.apply_statement_misses()
        self.rng.setstate(state)
        return tree

    def render_run(self, lines):
        """fz_runN: regions, inputs, mask, scale, the call and the dump."""
        n, G = self.n, GUARD
        ops = self.ops
        L = lines.append
        L(f"static void fz_run{n}() {{")
        regions = {}
        for role in "ABC":
            op = ops[role]
            if op.region == role:
                regions[role] = (op.ctype, self.spans[role])
        for role, (t, span) in regions.items():
            L(f"  {t} *h{role} = fz_alloc<{t}>({span + 2 * G});")
            if role != "C":
                L(f"  fz_fill(h{role} + {G}, {span}, "
                  f"{self.rng.getrandbits(48)}ull);")
        c = ops["C"]
        creg = c.region
        tc = c.ctype
        L(f"  {tc} *mC = fz_zeros<{tc}>({self.spans[creg] + 2 * G});")
        hr = {r: f"h{ops[r].region}" for r in "ABC"}
        L(f"  fz_call{n}(true, {hr['A']}, {hr['B']}, mC);")
        if creg == "C":
            L(f"  fz_fill_masked(hC + {G}, mC + {G}, {self.spans['C']}, "
              f"{self.rng.getrandbits(48)}ull);")
        norms = []
        for role in "ABC":
            op = ops[role]
            origin = op.base + sum(self.loops[v].lo * s
                                   for v, s in zip(op.vars, op.strides))
            dims = [(self.loops[v].hi - self.loops[v].lo, s)
                    for v, s in zip(op.vars, op.strides)]
            dims = [(1, 0)] * (3 - len(dims)) + dims
            args = ", ".join(f"{e}, {s}" for e, s in dims)
            norms.append(f"std::sqrt(fz_norm2({hr[role]} + {G + origin}, "
                         f"{args}))")
        K = self.loops["k"].hi - self.loops["k"].lo
        L(f"  double scale = {self.alpha!r} * {norms[0]} * {norms[1]} + "
          f"{self.beta!r} * {norms[2]};")
        L("  fz_sink_l = 0; fz_sink_d = 0;")
        for i, role in enumerate("ABC"):
            if role in regions:
                t, span = regions[role]
                L(f"  {t} *d{role} = fz_place(h{role}, {span + 2 * G}, "
                  f"fz_memkind[{3 * n + i}]);")
        dr = {r: f"d{ops[r].region}" for r in "ABC"}
        L(f"  fz_call{n}(false, {dr['A']}, {dr['B']}, {dr['C']});")
        for i, role in enumerate("ABC"):
            if role in regions:
                t, span = regions[role]
                L(f"  fz_unplace(h{role}, d{role}, {span + 2 * G}, "
                  f"fz_memkind[{3 * n + i}]);")
        L(f'  printf("nest {n} {self.eps_type()} {K} %.17g\\n", scale);')
        L(f"  fz_dump_written(h{creg}, mC, {self.spans[creg] + 2 * G});")
        for role, (t, span) in regions.items():
            mask = "mC" if role == creg else f"({t} *)0"
            L(f'  fz_dump_cells("{role}", h{role}, {mask}, {span + 2 * G});')
        L('  printf("s %ld %016llx\\n", fz_sink_l, fz_bits(fz_sink_d));')
        L("  fflush(stdout);")
        for role in regions:
            L(f"  free(h{role});")
        L("  free(mC);")
        L("}")


def _prod(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def _holds(node, stmt):
    if node is stmt:
        return True
    return isinstance(node, Block) and any(_holds(s, stmt) for s in node.body)


def _in_loop(node, loop, body):
    """True if `body` is the body of the Block of `loop` under `node`."""
    if not isinstance(node, Block):
        return False
    if node.loop is loop and node.body is body:
        return True
    return any(_in_loop(s, loop, body) for s in node.body)


def _writes(node):
    if isinstance(node, Stmt):
        return bool(node.writes)
    return any(_writes(s) for s in node.body)
