#!/usr/bin/env python3
"""What ptxas scheduled in a kernel's K loop, from its control codes.

Reads `cuobjdump -sass` output (of a cubin, or of libcublasLt.so for
cuBLAS's kernels with -fun NAME) and prints, per backward branch whose loop
holds at least 64 FFMAs: the instructions per trip and their opcode mix,
the sum of the stall counts ptxas set (one cycle an instruction is the
floor; the rest is what ncu reports as "wait"), how many FFMAs reuse
an operand of the FFMA before them (the .reuse cache) rather than read all
three from the register file, and how many read two registers of one bank
(the register number's parity), which may cost the FFMA a cycle. No GPU is
needed: nvcc -cubin here, and cuobjdump from the CUDA toolkit or the
nvidia-cuda-cuobjdump wheel.

Usage: sass-control.py FILE.sass [--function SUBSTRING]
"""

import argparse
import collections
import re

INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);?\s*/\*\s*0x([0-9a-f]{16})\s*\*/")
HIGH_WORD = re.compile(r"^\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$")


def functions(path):
    """{name: [(address, text, stall, reuse mask)]} of the file's kernels."""
    result, name = {}, None
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            result[name] = []
            continue
        m = INSTRUCTION.search(line)
        if m and name and i + 1 < len(lines) and HIGH_WORD.match(lines[i + 1]):
            # Volta and later: the control bits sit above bit 105 of the
            # 128-bit word, stall count first, operand reuse flags last.
            control = int(HIGH_WORD.match(lines[i + 1]).group(1), 16) >> 41
            result[name].append((int(m.group(1), 16), m.group(2).strip(),
                                 control & 15, (control >> 17) & 15))
    return result


def opcode(text):
    return re.sub(r"^@!?U?P\w+\s+", "", text).split()[0].split(".")[0]


def register_reads(body):
    """FFMAs that take an operand from the reuse cache, FFMAs that read two
    registers of one bank from the register file (bank = register number
    mod 2), and all FFMAs."""
    cached, conflicts, ffmas, last = 0, 0, 0, [None] * 3
    for _, text, _, _ in body:
        if opcode(text) != "FFMA":
            continue
        ffmas += 1
        hit, read = False, set()
        for slot, operand in enumerate(text.split(None, 1)[1].split(",")[1:4]):
            m = re.match(r"\s*R(\d+)(\.reuse)?", operand)
            register = int(m.group(1)) if m else None
            if register is not None and last[slot] == register:
                hit = True
            elif register is not None:
                read.add(register)
            last[slot] = register if m and m.group(2) else None
        cached += hit
        conflicts += any(len([r for r in read if r % 2 == bank]) > 1
                         for bank in (0, 1))
    return cached, conflicts, ffmas


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sass")
    parser.add_argument("--function", default="")
    args = parser.parse_args()
    for name, code in functions(args.sass).items():
        if args.function not in name:
            continue
        index = {address: i for i, (address, _, _, _) in enumerate(code)}
        for i, (address, text, _, _) in enumerate(code):
            m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", text)
            target = int(m.group(1), 16) if m else None
            if target is None or target >= address or target not in index:
                continue
            body = code[index[target]:i + 1]
            mix = collections.Counter(opcode(t) for _, t, _, _ in body)
            if mix["FFMA"] < 64:
                continue
            cached, conflicts, ffmas = register_reads(body)
            print("%s loop %#x-%#x: %d instructions, stall sum %d, FFMA %d "
                  "(%d reuse an operand, %d read two registers of one bank)"
                  % (name, target, address, len(body),
                     sum(s for _, _, s, _ in body), ffmas, cached, conflicts))
            print("  " + ", ".join("%s %d" % kv for kv in mix.most_common(12)))


if __name__ == "__main__":
    main()
