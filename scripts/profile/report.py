#!/usr/bin/env python3
"""Turn the samples of scripts/profile/sampler.c in a guest's kernel log into
a profile: per function, or per instruction of one function (objdump).

  report.py VMLINUX DMESG [ENTRIES]            top functions
  report.py VMLINUX DMESG ENTRIES FUNCTION     that function, by instruction

The last profiled read of the log is used. Per entry: samples x period
(5000 guest instructions) / ENTRIES; the timer's own work is not sampled
but lengthens the run, so the figures are about 15% high.
"""
import bisect
import collections
import re
import subprocess
import sys

PERIOD = 5000


def samples(dmesg):
    runs, cur = [], collections.Counter()
    for line in open(dmesg, errors="replace"):
        m = re.search(r"spprof (\S+) (\d+)", line)
        if not m:
            continue
        if m.group(1) == "total":
            runs.append(cur)
            cur = collections.Counter()
            continue
        cur[int(m.group(1), 16)] += int(m.group(2))
    if not runs:
        sys.exit(f"{dmesg}: no spprof samples (a read of fewer lines than the sampler's minimum?)")
    return runs[-1]


def symbols(vmlinux):
    out = subprocess.run(["nm", "-n", "-S", vmlinux], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    return syms


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    vmlinux, dmesg = sys.argv[1], sys.argv[2]
    entries = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    r = samples(dmesg)
    syms = symbols(vmlinux)
    starts = [s[0] for s in syms]
    if len(sys.argv) > 4:
        want = [s for s in syms if s[2] == sys.argv[4]]
        if not want:
            sys.exit(f"{sys.argv[4]}: no such function in {vmlinux}")
        start, size, _ = want[0]
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", vmlinux,
                              f"--start-address={start:#x}",
                              f"--stop-address={start + size:#x}"],
                             capture_output=True, text=True, check=True).stdout
        for line in dis.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
            if m:
                ip = int(m.group(1), 16)
                print(f"{r.get(ip, 0):6d} {ip - start:5x} {m.group(2)}")
        return
    by = collections.Counter()
    for ip, c in r.items():
        if ip == 1:
            by["<user>"] += c
            continue
        i = bisect.bisect_right(starts, ip) - 1
        by[syms[i][2] if i >= 0 else "?"] += c
    total = sum(by.values())
    for name, c in by.most_common(30):
        print(f"{c:6d} {100 * c / total:5.1f}% {c * PERIOD / entries:8.1f}/entry  {name}")
    print(f"{total} samples")


try:
    main()
except BrokenPipeError:
    pass
