#!/usr/bin/env python3
"""qd (device vulkan) and Quadrants 1.3.3 (arch=vulkan, adstack on) side by side, on this machine.

The same four kernels as benches/quadrants_cpu, from there: its .mlir files, inputs, Quadrants
kernel definitions, f64 finite differences and tolerances are imported from
../quadrants_cpu/bench.py, not copied; only the arch changes. Both systems run on the Vulkan
driver that VK_DRIVER_FILES names (run.sh pins lavapipe).

For each kernel: steady-state forward and backward times (qd: the medians of `qd-run --repeat N`;
Quadrants: the median of N calls after the first), first-call compile of the kernel and of its
gradient, the ratios qd / Quadrants, and a gradient check: qd against Quadrants within f32
tolerance, and qd against f64 central finite differences. Where Quadrants refuses a kernel (its
Vulkan adstack sizer rejects (a) at N = 2^20) or is known to be wrong ((d)), qd is checked against
finite differences only, and the table says so.

Usage: bench.py --qd-run PATH [--repeat N] [--rounds N] [--only abcd]
       bench.py --quadrants KERNEL ...   (internal: one Quadrants kernel in a fresh process)
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_DIR = os.path.join(HERE, "..", "quadrants_cpu")

# Loaded by path under its own name: `import bench` would find this file.
_spec = importlib.util.spec_from_file_location("quadrants_cpu_bench",
                                               os.path.join(CPU_DIR, "bench.py"))
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)


# ---- Quadrants (one kernel per fresh process, so that its first call compiles) ------------------

def quadrants_main(a):
    """The cpu script's Quadrants driver, with qd.init's arch swapped for vulkan."""
    import quadrants

    init = quadrants.init

    def init_vulkan(*args, **kw):
        kw["arch"] = quadrants.vulkan
        return init(*args, **kw)

    quadrants.init = init_vulkan
    cpu.quadrants_main(a)


def run_quadrants(kernel, x_npy, tmp, repeat):
    """Quadrants' results, or {"failed": reason} when it refuses the kernel."""
    out, g = os.path.join(tmp, f"q_{kernel}.json"), os.path.join(tmp, f"q_{kernel}_grad.npy")
    cmd = [sys.executable, os.path.abspath(__file__), "--quadrants", kernel, "--x", x_npy,
           "--out", out, "--grad-out", g, "--repeat", str(repeat)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        # Its own error (e.g. the adstack sizer's refusal) is a result of the benchmark: keep the
        # exception's first sentence for the table's notes.
        lines = [ln.strip() for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
        errs = [ln for ln in lines if re.match(r"^[\w.]*(Error|Exception)\b", ln)]
        msg = (errs or lines or [f"exit status {r.returncode}"])[-1]
        return {"failed": msg.split(". ")[0]}
    with open(out) as f:
        res = json.load(f)
    res["x.grad"] = np.load(g)
    res["compile_fwd"] = res["first_fwd"]
    res["compile_grad"] = res["first_grad"]
    return res


# ---- qd ------------------------------------------------------------------------------------------

def run_qd(qd, kernel, x_npy, tmp, repeat):
    """One qd-run process: the first run is the checked one (printed and saved), --repeat gives
    the steady state, and the first calls' compile times are reported apart."""
    g = os.path.join(tmp, f"qd_{kernel}_grad.npy")
    cmd = ([qd] + cpu.qd_args(kernel, x_npy)
           + ["--kernel", "compute", "--device", "vulkan", "--json", "--grad", "y=1",
              "--print", "y", "--save", f"x.grad={g}", "--repeat", str(repeat)])
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=CPU_DIR)
    if r.returncode != 0:
        raise SystemExit(f"qd-run failed on ({kernel}): {' '.join(cmd)}\n{r.stderr}")
    out = json.loads(r.stdout)
    t = out["timings_ms"]
    return {"fwd": t["launch_median"], "grad": t["grad_median"],
            "compile_fwd": t["parse"] + t["verify"] + t["compile_kernel"],
            "compile_grad": t["autodiff"] + t["compile_grad"],
            "y": out["fields"]["y"]["data"][0], "x.grad": np.load(g)}


# ---- comparison and table -------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--qd-run", help="the qd-run binary (release)")
    ap.add_argument("--repeat", type=int, default=10, help="steady-state runs after the first")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternate rounds of both systems; each keeps its best")
    ap.add_argument("--only", default="abcd", help="which kernels (letters)")
    ap.add_argument("--quadrants", help=argparse.SUPPRESS)
    ap.add_argument("--x", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--grad-out", help=argparse.SUPPRESS)
    # The cpu script's Quadrants driver reads a worker count (0: Quadrants' default); Vulkan
    # has none to set.
    ap.add_argument("--threads", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.quadrants:
        return quadrants_main(a)
    if not a.qd_run:
        ap.error("--qd-run is required")
    qd = os.path.abspath(a.qd_run)
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for k in a.only:
            x = cpu.inputs(k)
            x_npy = os.path.join(tmp, f"x_{k}.npy")
            np.save(x_npy, x)
            qs, ds = [], []
            for r in range(a.rounds):
                print(f"{cpu.NAMES[k]}, round {r + 1}/{a.rounds}: Quadrants, qd", file=sys.stderr,
                      flush=True)
                qs.append(run_quadrants(k, x_npy, tmp, a.repeat))
                ds.append(run_qd(qd, k, x_npy, tmp, a.repeat))
            d = cpu.best(ds)
            good_q = [q for q in qs if "failed" not in q]
            q = cpu.best(good_q) if good_q else qs[0]
            fd = cpu.finite_differences(k, x)
            e_qd_fd = cpu.rel_err(d["x.grad"], fd)
            if "failed" in q:
                e_peer = e_q_fd = None
                good = e_qd_fd <= cpu.TOL_FD
            else:
                e_peer = cpu.rel_err(d["x.grad"], q["x.grad"])
                e_q_fd = cpu.rel_err(q["x.grad"], fd)
                # On (d) Quadrants' whole-vector adstack gives a wrong gradient (as on cpu).
                good = e_qd_fd <= cpu.TOL_FD and (k == "d" or e_peer <= cpu.TOL_PEER)
            ok &= good
            rows.append((k, d, q, e_peer, e_qd_fd, e_q_fd, good))
    print_table(rows, a.repeat, a.rounds)
    return 0 if ok else 1


def print_table(rows, repeat, rounds):
    driver = os.path.basename(os.environ.get("VK_DRIVER_FILES", "") or "(default Vulkan driver)")
    print(f"\nqd (vulkan) vs Quadrants 1.3.3 (vulkan, adstack) on {driver}, {os.cpu_count()} "
          f"cores; times in ms, best of {rounds} round(s); steady state: medians of {repeat} "
          f"runs after the first (qd-run --repeat {repeat}; Quadrants {repeat} calls)")
    head = ("kernel", "fwd qd", "fwd Q", "qd/Q", "bwd qd", "bwd Q", "qd/Q",
            "compile qd f+g", "compile Q f+g", "qd/Q", "grad qd~Q", "qd~FD", "Q~FD", "check")
    fmt = "{:<16}{:>9}{:>9}{:>7}{:>9}{:>9}{:>7}{:>17}{:>17}{:>7}{:>11}{:>9}{:>9}{:>7}"
    print(fmt.format(*head))
    notes = []
    for k, d, q, e_peer, e_qd_fd, e_q_fd, good in rows:
        cd = d["compile_fwd"] + d["compile_grad"]
        if "failed" in q:
            notes.append(f"{cpu.NAMES[k]}: Quadrants failed: {q['failed']}")
            nq = "failed"
            print(fmt.format(
                cpu.NAMES[k], f"{d['fwd']:.1f}", nq, "-", f"{d['grad']:.1f}", nq, "-",
                f"{d['compile_fwd']:.0f}+{d['compile_grad']:.0f}", nq, "-", "-",
                f"{e_qd_fd:.1e}", "-", "ok" if good else "FAIL"))
            continue
        cq = q["compile_fwd"] + q["compile_grad"]
        print(fmt.format(
            cpu.NAMES[k], f"{d['fwd']:.1f}", f"{q['fwd']:.1f}", f"{d['fwd'] / q['fwd']:.2f}",
            f"{d['grad']:.1f}", f"{q['grad']:.1f}", f"{d['grad'] / q['grad']:.2f}",
            f"{d['compile_fwd']:.0f}+{d['compile_grad']:.0f}",
            f"{q['compile_fwd']:.0f}+{q['compile_grad']:.0f}", f"{cd / cq:.2f}",
            f"{e_peer:.1e}", f"{e_qd_fd:.1e}", f"{e_q_fd:.1e}", "ok" if good else "FAIL"))
    for n in notes:
        print(n)
    print(f"\ngrad columns: max |difference| / max |reference| of x.grad (qd vs Quadrants, qd vs "
          f"f64 central differences, Quadrants vs them); check: qd~Q <= {cpu.TOL_PEER:g} and "
          f"qd~FD <= {cpu.TOL_FD:g}; qd~FD only where Quadrants failed, and on (d) (Quadrants' "
          f"local-array gradient is wrong).")
    print("compile: qd = parse + verify + the kernel's lowering, SPIR-V and pipeline creation "
          "(compile_kernel), then autodiff + the gradient's (compile_grad); Quadrants = its first "
          "call of the kernel, then of .grad (offline cache off), with every trip count 0 so "
          "that they do next to nothing but compile. Lavapipe may defer part of its shader "
          "compile to the first dispatch: that part is in Quadrants' first calls, and in neither "
          "of qd's columns (it is in qd-run's first `launch`/`grad`, not in the medians).")


if __name__ == "__main__":
    sys.exit(main())
