#!/usr/bin/env python3
"""gemm-opt's differential fuzzer: random GEMM nests and near-misses (gen.py),
each program built as written (the host compiler) and through gemm-opt (then
nvcc), both run on the same inputs and compared (compare_fuzz.py).

    fuzz.py --seeds A:B [--jobs N] [--mode cpu] [--keep DIR]
    fuzz.py --seeds A:B --mode gpu-prepare [--out DIR]

cpu: the rewrite runs with GEMM_OPT_DEVICE=cpu, so each rewritten nest runs
the problem gemm-opt lifted (operands, strides, batch, alpha, beta) on the
runtime's CPU reference instead of its loop: a recognition error changes the
results without a GPU. gemm-opt gets --reference-kernel, so nvcc compiles
host code only. Besides the results, every nest must get exactly one remark,
at its outermost for (or at the next for, where gemm-opt peels an outer loop
that it takes for a repeat loop and reports the nest inside it); that of a
rewritten nest names the precision its pragma asked for, or says that it
does not apply (f64, floats summed in double), and no other.

gpu-prepare: writes, per seed, DIR/<seed>/{prog.cpp, prog.cu,
expected.txt.gz, nests}: the program, gemm-opt's output with real kernels,
the original's output and the nest count, for test/gpu/fuzz.sh to build and
check on a GPU machine. Operands that the generator placed in device memory
stay there only in nests that gemm-opt rewrote (the original loop cannot
read device memory).

One line per failing nest (seed, nest, what failed, the reproducer kept
under DIR/seed-<seed>: prog.cpp, its outputs, and nest-<N>.cpp holding just
that nest), then
    fuzz: N nests (R rewritten, L left as written), P passed, F failed
Exit status 1 if anything failed.
"""

import argparse
import concurrent.futures
import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_fuzz  # noqa: E402
import gen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
REMARK = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): remark: "
                    r"(?P<msg>.*) \[-Rpass(?P<missed>-missed)?=gemm\]$")
RUN_TIMEOUT = 300


class StepFailed(Exception):
    def __init__(self, step, output):
        super().__init__(step)
        self.step, self.output = step, output


def run(cmd, cwd, step, env=None, stdout_path=None):
    """Runs cmd; returns its stderr, raising StepFailed on failure."""
    for attempt in range(4):
        out = open(stdout_path, "w") if stdout_path else subprocess.DEVNULL
        try:
            proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out,
                                  stderr=subprocess.PIPE, text=True,
                                  errors="replace", timeout=RUN_TIMEOUT)
            break
        except subprocess.TimeoutExpired:
            raise StepFailed(step, f"timed out after {RUN_TIMEOUT} s")
        except OSError as err:
            # A tool that a build is relinking right now: wait for it.
            if attempt == 3:
                raise StepFailed(step, str(err))
            time.sleep(15)
        finally:
            if stdout_path:
                out.close()
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.splitlines()[-15:])
        raise StepFailed(step, f"exit status {proc.returncode}\n{tail}")
    return proc.stderr


def check_remarks(stderr, nests):
    """Matches gemm-opt's remarks with the nests. Returns the numbers of the
    rewritten nests and of those reported inside a peeled outer loop, nest ->
    problem, problems of no nest, and nest -> its remark."""
    by_nest = {n.index: [] for n in nests}
    stray = []
    for line in stderr.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        lineno = int(m["line"])
        owner = next((n for n in nests if n.line <= lineno <= n.end), None)
        if os.path.basename(m["file"]) != "prog.cpp" or owner is None:
            stray.append(f"remark outside every nest: {line}")
        else:
            by_nest[owner.index].append((lineno, bool(m["missed"]), m["msg"]))
    rewritten, peeled, problems = set(), set(), {}
    for n in nests:
        got = by_nest[n.index]
        if not got:
            problems[n.index] = f"no remark for the nest at prog.cpp:{n.line}"
            continue
        if len(got) > 1:
            problems[n.index] = (f"{len(got)} remarks for the nest at "
                                 f"prog.cpp:{n.line}: " +
                                 " | ".join(g[2] for g in got))
            continue
        lineno, missed, text = got[0]
        if lineno == n.inner_line:
            peeled.add(n.index)
        elif lineno != n.line:
            problems[n.index] = (f"remark at line {lineno}, not at the "
                                 f"outermost for (line {n.line}): {text}")
        elif not missed and precision_problem(n, text):
            problems[n.index] = precision_problem(n, text)
        if not missed:
            rewritten.add(n.index)
    messages = {n: got[0][2] for n, got in by_nest.items() if got}
    return rewritten, peeled, problems, stray, messages


def precision_problem(nest, text):
    """What the remark of a rewritten nest fails to say of its precision
    pragma (gen.py's precision_remark), or None. A peeled nest is reported
    at a loop that the pragma does not stand above."""
    if nest.precision_remark and nest.precision_remark not in text:
        return (f"'#pragma gemm_opt precision({nest.precision})', but the "
                f"remark does not say '{nest.precision_remark}': {text}")
    if not nest.precision_remark and "; precision " in text:
        return f"a precision that no pragma asked for: {text}"
    return None


class Tools:
    def __init__(self, args):
        self.gemm_opt = args.gemm_opt or os.path.join(ROOT, "build", "bin",
                                                      "gemm-opt")
        self.nvcc = args.nvcc or shutil.which("nvcc") or \
            "/usr/local/cuda/bin/nvcc"
        self.host_cxx = args.host_cxx
        self.nvcc_flags = args.nvcc_flags
        if self.nvcc_flags is None and args.mode == "cpu":
            self.nvcc_flags = subprocess.run(
                [self.gemm_opt, "--nvcc-flags"], check=True,
                capture_output=True, text=True).stdout
        self.nvcc_flags = shlex.split(self.nvcc_flags or "")


class SeedResult:
    def __init__(self, seed, nests):
        self.seed, self.nests = seed, nests
        self.rewritten, self.peeled = set(), set()
        self.messages = {}        # nest number -> its remark
        self.failures = {}        # nest number (or None) -> why
        self.surprises = []       # lines about expectations not met

    def fail(self, nest, why):
        self.failures.setdefault(nest, why)


def gemm_opt_cmd(tools, seed, mode):
    cmd = [tools.gemm_opt, "prog.cpp", "-o", "prog.cu"]
    if mode == "cpu":
        cmd.append("--reference-kernel")
    elif seed % 4:
        # One kernel per nest keeps nvcc's time down; every fourth program
        # keeps the model's alternatives for smaller problems.
        cmd.append("--schedule=alternatives=0")
    if seed % 2:
        cmd += ["--", "-fopenmp"]
    return cmd


def pinpoint(seed, nests, work, step, big):
    """The nests whose single-nest programs fail `step` (a function of a
    directory holding prog.cpp), for a failure of a whole program."""
    guilty = []
    for n in nests:
        d = os.path.join(work, f"only-{n.index}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "prog.cpp"), "w") as f:
            f.write(gen.generate(seed, only=n.index, big=big).text)
        try:
            step(d)
        except StepFailed:
            guilty.append(n.index)
    return guilty


def fuzz_seed(seed, tools, args):
    """Generates, builds, runs and compares one program."""
    big = args.mode == "gpu-prepare"
    prog = gen.generate(seed, big=big)
    result = SeedResult(seed, prog.nests)
    work = tempfile.mkdtemp(prefix=f"gemm-opt-fuzz-{seed}-")
    with open(os.path.join(work, "prog.cpp"), "w") as f:
        f.write(prog.text)

    def build_orig(d):
        run([tools.host_cxx, "-O1", "-std=c++17", "-w", "prog.cpp", "-o",
             "orig"], d, "g++")

    def rewrite(d):
        return run(gemm_opt_cmd(tools, seed, args.mode), d, "gemm-opt")

    def build_rewritten(d):
        run([tools.nvcc, "-O2", "-w", "-DFZ_HOST_ONLY", "prog.cu", "-o",
             "rewritten"] + tools.nvcc_flags, d, "nvcc")

    try:
        build_orig(work)
        try:
            stderr = rewrite(work)
        except StepFailed as err:
            blame(result, err, pinpoint(seed, prog.nests, work, rewrite, big))
            return finish(result, work, args)
        rewritten, peeled, problems, stray, result.messages = check_remarks(
            stderr, prog.nests)
        result.rewritten, result.peeled = rewritten, peeled
        for n, why in problems.items():
            result.fail(n, why)
        for why in stray:
            result.fail(None, why)
        expect_report(result)
        run(["./orig"], work, "the original program",
            stdout_path=os.path.join(work, "expected.txt"))
        if args.mode == "gpu-prepare":
            prepare(result, prog, work, args)
            return finish(result, work, args)
        try:
            build_rewritten(work)
        except StepFailed as err:
            blame(result, err, pinpoint(
                seed, prog.nests, work,
                lambda d: (rewrite(d), build_rewritten(d)), big))
            return finish(result, work, args)
        env = dict(os.environ, GEMM_OPT_DEVICE="cpu")
        actual = os.path.join(work, "actual.txt")
        try:
            run(["./rewritten"], work, "the rewritten program", env=env,
                stdout_path=actual)
        except StepFailed as err:
            result.fail(None, f"{err.step}: {err.output}")
        with open(os.path.join(work, "expected.txt")) as f:
            expected_text = f.read()
        with open(actual, errors="replace") as f:
            actual_text = f.read()
        for n, why in compare_fuzz.compare(
                expected_text, actual_text,
                [n.index for n in prog.nests]).items():
            if why:
                result.fail(n, why)
    except StepFailed as err:
        result.fail(None, f"{err.step}: {err.output}")
    return finish(result, work, args)


def blame(result, err, guilty):
    """A build step failed for the whole program: blame the nests that fail
    it alone, or the program if none or all of them do."""
    if 0 < len(guilty) < len(result.nests):
        for n in guilty:
            result.fail(n, f"{err.step} fails on this nest alone: "
                           f"{err.output}")
    else:
        result.fail(None, f"{err.step}: {err.output}")


def expect_report(result):
    """Notes the nests whose fate differs from the generator's expectation:
    not failures, since results are what must agree."""
    for n in result.nests:
        done = n.index in result.rewritten
        what = (f"{n.summary}\n    remark: "
                f"{result.messages.get(n.index, '(none)')}")
        where = f"seed {result.seed} nest {n.index} (prog.cpp:{n.line})"
        if n.index in result.peeled:
            result.surprises.append(f"{where}: outer loop peeled: {what}")
        elif n.expect == "gemm" and not done:
            result.surprises.append(f"{where}: left as written: {what}")
        elif n.expect == "miss" and done:
            result.surprises.append(f"{where}: rewritten: {what}")


def prepare(result, prog, work, args):
    """gpu-prepare: keeps what test/gpu/fuzz.sh needs under args.out."""
    dest = os.path.join(args.out, str(result.seed))
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(work, "prog.cu")) as f:
        text = gen.patch_memkind(f.read(), result.rewritten)
    with open(os.path.join(dest, "prog.cu"), "w") as f:
        f.write(text)
    shutil.copy(os.path.join(work, "prog.cpp"), dest)
    # Compressed: the directory travels to the GPU machine.
    with open(os.path.join(work, "expected.txt"), "rb") as f, \
            gzip.open(os.path.join(dest, "expected.txt.gz"), "wb") as g:
        shutil.copyfileobj(f, g)
    with open(os.path.join(dest, "nests"), "w") as f:
        f.write(f"{len(prog.nests)} {len(result.rewritten)}\n")


def finish(result, work, args):
    """Keeps the reproducer of a failing seed; removes the work directory."""
    if result.failures:
        keep = os.path.join(args.keep, f"seed-{result.seed}")
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(work, keep, ignore=shutil.ignore_patterns(
            "orig", "rewritten", "only-*"))
        for n in result.failures:
            if n is not None:
                with open(os.path.join(keep, f"nest-{n}.cpp"), "w") as f:
                    f.write(gen.generate(result.seed, only=n,
                                         big=args.mode != "cpu").text)
        result.keep = keep
    shutil.rmtree(work, ignore_errors=True)
    return result


def parse_seeds(text):
    first, _, last = text.partition(":")
    return range(int(first), int(last)) if last else range(int(first),
                                                           int(first) + 1)


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", required=True,
                        help="A:B runs seeds A to B-1; A runs one")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(),
                        help="programs at a time (default: the CPU count)")
    parser.add_argument("--mode", choices=["cpu", "gpu-prepare"],
                        default="cpu")
    parser.add_argument("--keep", default=os.path.join(
        tempfile.gettempdir(), "gemm-opt-fuzz-failures"),
        help="where failing programs are kept")
    parser.add_argument("--out", default=os.path.join(ROOT, ".gpu", "fuzz"),
                        help="gpu-prepare: the output directory (emptied "
                             "first)")
    parser.add_argument("--gemm-opt", help="(default: build/bin/gemm-opt)")
    parser.add_argument("--nvcc")
    parser.add_argument("--nvcc-flags",
                        help="(default: gemm-opt --nvcc-flags)")
    parser.add_argument("--host-cxx", default="g++")
    parser.add_argument("--verbose", action="store_true",
                        help="list the nests whose remark is not the one "
                             "the generator expected")
    args = parser.parse_args(argv)
    gemm_opt = args.gemm_opt or os.path.join(ROOT, "build", "bin", "gemm-opt")
    if not shutil.which(gemm_opt):
        parser.error(f"no gemm-opt at {gemm_opt} (see --gemm-opt)")
    tools = Tools(args)
    if args.mode == "gpu-prepare":
        shutil.rmtree(args.out, ignore_errors=True)
        os.makedirs(args.out)

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda s: fuzz_seed(s, tools, args),
                                parse_seeds(args.seeds)))
    nests = rewritten = failed = 0
    surprises = []
    for r in results:
        nests += len(r.nests)
        rewritten += len(r.rewritten)
        surprises += r.surprises
        for n, why in sorted(r.failures.items(),
                             key=lambda x: -1 if x[0] is None else x[0]):
            where = f"nest {n}" if n is not None else "program"
            print(f"FAIL seed {r.seed} {where}: {why} [kept in {r.keep}]")
        # A program-wide failure fails every nest that has no other verdict.
        failed += (len(r.nests) if None in r.failures else
                   len(r.failures))
    if args.verbose:
        for line in surprises:
            print(f"note: {line}")
    peeled = sum(len(r.peeled) for r in results)
    print(f"fuzz: {len(surprises) - peeled} nests not as the generator "
          f"expected, {peeled} with a peeled outer loop (--verbose lists "
          f"them)")
    verb = "prepared" if args.mode == "gpu-prepare" else "passed"
    print(f"fuzz: {nests} nests ({rewritten} rewritten, {nests - rewritten} "
          f"left as written), {nests - failed} {verb}, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
