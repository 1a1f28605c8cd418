#!/usr/bin/env python3
"""qd (device cpu) and Quadrants 1.3.3 (arch=cpu, adstack on) side by side, on this machine.

Four kernels, each written once as a qd kernel (the .mlir files next to this script) and once as
its Taichi-style Quadrants equivalent (below):

  (a) linear: v = v*0.95 + 0.01, n = 64 iterations read from a field, N = 2^20 threads
  (b) sin:    v = sin(v)*0.9 + 0.1, trip count a[i] = 64 read from an ndarray, N = 2^20
  (c) triangular: examples/triangular.mlir scaled up (N = 16384 threads, m = 32)
  (d) local array: 64 f32 updated at a dynamic index (t mod 64), N = 4096 threads, n = 1024 steps

For each: steady-state forward and backward times (medians of --repeat runs after the first),
of qd (vectorised, and with --vectorize off) and Quadrants; compile time of the kernel and of its
gradient; speedups Quadrants / qd; achieved GFLOP/s next to the machine's peak (an FMA and a
memcpy probe, probe.c, run first); the speedup from 1 to 2 worker threads of both systems; and the
issue's targets, each "met" or "NOT met". The gradients are checked: qd against Quadrants within
f32 tolerance, and both against f64 central finite differences (on (d) Quadrants is known to be
wrong, so there qd is checked against finite differences only). Run through run.sh, which makes
the venv and builds qd-run. README.md says how to read the tables.

Usage: bench.py --qd-run PATH [--repeat N] [--rounds N] [--only abcd] [--no-threads]
       bench.py --quadrants KERNEL ...   (internal: one Quadrants kernel in a fresh process)
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N_LINEAR = 1 << 20
N_SIN = 1 << 20
N_TRI, M_TRI = 16384, 32
N_LOCAL, STEPS_LOCAL = 4096, 1024


# ---- the kernels: inputs, qd command line, f64 reference per element ----------------------------

# Floating-point operations per kernel, counted from the algorithm (not from the code either system
# runs): an add or a multiply is 1, sin, cos and tanh are 20 each (a range reduction and a
# polynomial of degree ~9 in Horner form: about what a vector math library spends), the final
# atomic sums are left out (N adds against 64 or more steps per thread). A backward pass counts
# its forward sweep plus the adjoint of each step: (a) adj *= 0.95 (1); (b), (d) adj *= 0.9 cos(v)
# (cos + 2); (c) adj *= 0.5 (1 - t^2) with t = tanh(v) recomputed (tanh + 4). None of the kernels
# is memory-bound: each reads and writes a few bytes per thread against 64 or more steps.
SIN = 20
TANH = 20
FLOPS = {
    "a": (2 * 64 * N_LINEAR, (2 + 1) * 64 * N_LINEAR),
    "b": ((SIN + 2) * 64 * N_SIN, (SIN + 2 + SIN + 2) * 64 * N_SIN),
    "c": ((TANH + 1) * (M_TRI * (M_TRI - 1) // 2) * N_TRI,
          (TANH + 1 + TANH + 4) * (M_TRI * (M_TRI - 1) // 2) * N_TRI),
    "d": ((SIN + 2) * STEPS_LOCAL * N_LOCAL, (SIN + 2 + SIN + 2) * STEPS_LOCAL * N_LOCAL),
}

def inputs(kernel):
    """The x of a kernel (float32), as both systems get it."""
    if kernel == "a":
        return np.linspace(0.0, 1.0, N_LINEAR, dtype=np.float32)
    if kernel == "b":
        return np.linspace(0.0, 1.0, N_SIN, dtype=np.float32)
    if kernel == "c":
        return np.linspace(0.5, 1.0, N_TRI, dtype=np.float32)
    return np.linspace(0.0, 1.0, N_LOCAL * 64, dtype=np.float32).reshape(N_LOCAL, 64)


def qd_args(kernel, x_npy):
    """qd-run's file and data arguments for a kernel."""
    if kernel == "a":
        return ["linear.mlir", "--set", "n=64", "--set", f"x={x_npy}"]
    if kernel == "b":
        return ["sin.mlir", "--arg", f"a=fill(64):{N_SIN}", "--set", f"x={x_npy}"]
    if kernel == "c":
        return ["triangular.mlir", "--set", f"m={M_TRI}", "--set", f"x={x_npy}"]
    return ["local_array.mlir", "--set", f"n={STEPS_LOCAL}", "--set", f"x={x_npy}"]


def finite_differences(kernel, x, h=1e-3):
    """f64 central differences (F(x+h) - F(x-h)) / 2h of each element's contribution F to y (y is
    their sum and no element depends on another, so this is the whole gradient at once).

    The gradients here are as small as 1e-11 of F itself (64 contracting steps), far below f64's
    resolution of F(x+h) - F(x-h) as a difference of two computed values. So the two trajectories
    are carried as their midpoint m and half-difference d (a = m + d, b = m - d), each step mapped
    by exact identities (sin a - sin b = 2 cos m sin d, ...): the same central difference, without
    the cancellation."""
    m = x.astype(np.float64)
    d = np.full_like(m, h)

    def sin_step(m, d):  # a -> sin(a)*0.9 + 0.1
        return 0.9 * np.sin(m) * np.cos(d) + 0.1, 0.9 * np.cos(m) * np.sin(d)

    def tanh_step(m, d):  # a -> tanh(a)*0.5; cosh(m+d) cosh(m-d) = (cosh 2m + cosh 2d) / 2
        den = (np.cosh(2 * m) + np.cosh(2 * d)) / 2
        return 0.25 * np.sinh(2 * m) / den, 0.25 * np.sinh(2 * d) / den

    if kernel == "a":
        for _ in range(64):
            m, d = m * 0.95 + 0.01, d * 0.95
    elif kernel == "b":
        for _ in range(64):
            m, d = sin_step(m, d)
    elif kernel == "c":
        total = np.zeros_like(m)
        for j in range(M_TRI):
            mj, dj = m, d
            for _ in range(j):
                mj, dj = tanh_step(mj, dj)
            total += dj
        d = total
    else:
        # Element k of a row is updated at the steps t < n with t mod 64 == k.
        counts = np.array([len(range(k, STEPS_LOCAL, 64)) for k in range(64)])
        m, d = m.copy(), d.copy()
        for step in range(counts.max()):
            upd = counts > step
            m[:, upd], d[:, upd] = sin_step(m[:, upd], d[:, upd])
    return d / h


# ---- Quadrants (one kernel per fresh process, so that its first call compiles) ------------------

def quadrants_main(a):
    import quadrants as qd

    # No offline cache: the first call must compile, as qd's first run does.
    threads = {"cpu_max_num_threads": a.threads} if a.threads else {}
    qd.init(arch=qd.cpu, ad_stack_experimental_enabled=True, offline_cache=False,
            src_ll_cache=False, **threads)
    x_np = np.load(a.x)
    kernel = a.quadrants
    y = qd.field(qd.f32, shape=(), needs_grad=True)
    x = qd.field(qd.f32, shape=x_np.shape, needs_grad=True)
    args = ()
    # trips(False) makes every loop of the kernel run zero times: the first calls then cost their
    # compile and next to nothing else. trips(True) sets the benchmark's trip counts.
    if kernel == "a":
        n = qd.field(qd.i32, shape=())

        def trips(on):
            n[None] = 64 if on else 0

        @qd.kernel
        def compute():
            for i in x:
                v = x[i]
                for _ in range(n[None]):
                    v = v * 0.95 + 0.01
                y[None] += v
    elif kernel == "b":
        counts = qd.ndarray(qd.i32, shape=N_SIN)
        args = (counts,)

        def trips(on):
            counts.from_numpy(np.full(N_SIN, 64 if on else 0, dtype=np.int32))

        @qd.kernel
        def compute(t: qd.types.ndarray(dtype=qd.i32, ndim=1)):
            for i in x:
                v = x[i]
                for _ in range(t[i]):
                    v = qd.sin(v) * 0.9 + 0.1
                y[None] += v
    elif kernel == "c":
        m = qd.field(qd.i32, shape=())

        def trips(on):
            m[None] = M_TRI if on else 0

        @qd.kernel
        def compute():
            for i in x:
                for j in range(m[None]):
                    v = x[i]
                    for _ in range(j):
                        v = qd.tanh(v) * 0.5
                    y[None] += v
    else:
        n = qd.field(qd.i32, shape=())

        def trips(on):
            n[None] = STEPS_LOCAL if on else 0

        @qd.kernel
        def compute():
            for r in range(N_LOCAL):
                arr = qd.Vector.zero(qd.f32, 64)
                for k in range(64):
                    arr[k] = x[r, k]
                for t in range(n[None]):
                    j = t % 64
                    arr[j] = qd.sin(arr[j]) * 0.9 + 0.1
                for k in range(64):
                    y[None] += arr[k]

    x.from_numpy(x_np)

    def timed(f):
        t0 = time.perf_counter()
        f(*args)
        qd.sync()
        return (time.perf_counter() - t0) * 1e3

    trips(False)
    first_fwd = timed(compute)
    y.grad[None] = 1.0
    first_grad = timed(compute.grad)
    # The same calls again, compiled: what the first calls spent beyond them is their compile
    # ((d)'s row loop of 4096 threads runs even with no step, and its backward is slow).
    again_fwd, again_grad = timed(compute), timed(compute.grad)
    trips(True)
    fwd = [timed(compute) for _ in range(a.repeat)]
    grad = [timed(compute.grad) for _ in range(a.repeat)]
    # The checked results: one forward from y = 0, one gradient from zero adjoints.
    y[None] = 0.0
    compute(*args)
    x.grad.fill(0.0)
    y.grad[None] = 1.0
    compute.grad(*args)
    qd.sync()
    np.save(a.grad_out, x.grad.to_numpy())
    out = {"first_fwd": first_fwd, "first_grad": first_grad, "again_fwd": again_fwd,
           "again_grad": again_grad, "fwd": statistics.median(fwd),
           "grad": statistics.median(grad), "y": float(y[None])}
    with open(a.out, "w") as f:
        json.dump(out, f)


def run_quadrants(kernel, x_npy, tmp, repeat, threads=0):
    out, g = os.path.join(tmp, f"q_{kernel}.json"), os.path.join(tmp, f"q_{kernel}_grad.npy")
    cmd = [sys.executable, os.path.abspath(__file__), "--quadrants", kernel, "--x", x_npy,
           "--out", out, "--grad-out", g, "--repeat", str(repeat), "--threads", str(threads)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"Quadrants failed on ({kernel}):\n{r.stdout}{r.stderr}")
    with open(out) as f:
        res = json.load(f)
    res["x.grad"] = np.load(g)
    # The first calls ran no step: they are the compile and a launch; the launch is the same
    # call made again.
    res["compile_fwd"] = max(res["first_fwd"] - res["again_fwd"], 0.0)
    res["compile_grad"] = max(res["first_grad"] - res["again_grad"], 0.0)
    return res


# ---- qd ------------------------------------------------------------------------------------------

def qd_run(qd, kernel, extra, x_npy):
    cmd = [qd] + qd_args(kernel, x_npy) + ["--kernel", "compute", "--device", "cpu", "--json"]
    r = subprocess.run(cmd + extra, capture_output=True, text=True, cwd=HERE)
    if r.returncode != 0:
        raise SystemExit(f"qd-run failed on ({kernel}): {' '.join(cmd + extra)}\n{r.stderr}")
    return json.loads(r.stdout)


def run_qd(qd, kernel, x_npy, tmp, repeat, flags=()):
    g = os.path.join(tmp, f"qd_{kernel}_grad.npy")
    # One process: the first run (its compile, and the printed and saved results: one forward,
    # one gradient), then `repeat` timed repetitions from the same inputs.
    out = qd_run(qd, kernel, ["--grad", "y=1", "--print", "y", "--save", f"x.grad={g}",
                              "--repeat", str(repeat)] + list(flags), x_npy)
    t = out["timings_ms"]
    return {"fwd": t["launch_median"], "grad": t["grad_median"],
            "compile_fwd": t["parse"] + t["verify"] + t["compile_kernel"],
            "compile_grad": t["autodiff"] + t["compile_grad"],
            "y": out["fields"]["y"]["data"][0], "x.grad": np.load(g)}


# ---- comparison and table -------------------------------------------------------------------------

def best(runs):
    """The fastest of each time over rounds; the checked results of the first round."""
    out = dict(runs[0])
    for key in ("fwd", "grad", "compile_fwd", "compile_grad"):
        out[key] = min(r[key] for r in runs)
    return out


def rel_err(got, want):
    """Largest difference, relative to the largest magnitude of `want`."""
    scale = float(np.max(np.abs(want))) or 1.0
    return float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) / scale


# f32 gradients through 64 chained steps, summed in a different order and with sin/tanh a few
# ulps apart: agreement to 1e-4 of the largest element is f32 agreement; finite differences in f64
# along the f64 trajectory are further off by the f32 rounding of that trajectory.
TOL_PEER = 1e-4
TOL_FD = 1e-3

NAMES = {"a": "(a) linear", "b": "(b) sin", "c": "(c) triangular", "d": "(d) local array"}


# ---- the machine's peak: probe.c (FMA and memcpy) --------------------------------------------------

def probe(tmp, threads):
    """f32 FMA GFLOP/s and memcpy GB/s (bytes read + written), on 1 thread and on `threads`:
    probe.c compiled with cc -O3 -march=native; without a C compiler, numpy's float32 matmul
    (BLAS; its own threads) and array copies, which are lower bounds of the peak."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc:
        exe = os.path.join(tmp, "probe")
        r = subprocess.run([cc, "-O3", "-march=native", "-pthread", os.path.join(HERE, "probe.c"),
                            "-o", exe], capture_output=True, text=True)
        if r.returncode == 0:
            out = json.loads(subprocess.run([exe, str(threads)], capture_output=True, text=True,
                                            check=True).stdout)
            out["how"] = f"probe.c ({os.path.basename(cc)} -O3 -march=native)"
            return out
    n = 2048
    a = np.ones((n, n), dtype=np.float32)
    a @ a
    t0 = time.perf_counter()
    a @ a
    flops = 2 * n ** 3 / (time.perf_counter() - t0) / 1e9
    src = np.ones(64 << 20, dtype=np.uint8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    t0 = time.perf_counter()
    for _ in range(4):
        np.copyto(dst, src)
    gbs = 2 * 4 * src.nbytes / (time.perf_counter() - t0) / 1e9
    return {"fma_gflops_1": flops, "fma_gflops_all": flops, "copy_gbs_1": gbs,
            "copy_gbs_all": gbs, "threads": threads,
            "how": "no C compiler: numpy float32 matmul and copies (lower bounds)"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--qd-run", help="the qd-run binary (release)")
    ap.add_argument("--repeat", type=int, default=5, help="steady-state runs after the first")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternate rounds of both systems; each keeps its best")
    ap.add_argument("--only", default="abcd", help="which kernels (letters)")
    ap.add_argument("--no-threads", action="store_true",
                    help="skip the 1 vs 2 threads runs (one extra round of both systems)")
    ap.add_argument("--quadrants", help=argparse.SUPPRESS)
    ap.add_argument("--x", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--grad-out", help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.quadrants:
        return quadrants_main(a)
    if not a.qd_run:
        ap.error("--qd-run is required")
    qd = os.path.abspath(a.qd_run)
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        print("machine probe (FMA, memcpy)", file=sys.stderr, flush=True)
        peak = probe(tmp, os.cpu_count() or 1)
        for k in a.only:
            x = inputs(k)
            x_npy = os.path.join(tmp, f"x_{k}.npy")
            np.save(x_npy, x)
            # Rounds alternate the two systems, and each time keeps its best round: on a shared
            # machine, other work only ever slows a run down.
            qs, ds, offs = [], [], []
            for r in range(a.rounds):
                print(f"{NAMES[k]}, round {r + 1}/{a.rounds}: Quadrants, qd, qd --vectorize off",
                      file=sys.stderr, flush=True)
                qs.append(run_quadrants(k, x_npy, tmp, a.repeat))
                ds.append(run_qd(qd, k, x_npy, tmp, a.repeat))
                offs.append(run_qd(qd, k, x_npy, tmp, a.repeat, ["--vectorize", "off"]))
            q, d, off = best(qs), best(ds), best(offs)
            scale = {}
            if not a.no_threads:
                # One round, fewer repeats: the speedup from 1 to 2 workers of each system.
                print(f"{NAMES[k]}: 1 and 2 threads", file=sys.stderr, flush=True)
                rep = max(1, min(a.repeat, 3))
                for n in (1, 2):
                    scale[("qd", n)] = run_qd(qd, k, x_npy, tmp, rep, ["--threads", str(n)])
                    scale[("Q", n)] = run_quadrants(k, x_npy, tmp, rep, threads=n)
            fd = finite_differences(k, x)
            e_y = abs(d["y"] - q["y"]) / max(abs(q["y"]), 1e-30)
            e_peer = rel_err(d["x.grad"], q["x.grad"])
            e_qd_fd, e_q_fd = rel_err(d["x.grad"], fd), rel_err(q["x.grad"], fd)
            e_off_fd = rel_err(off["x.grad"], fd)
            if k == "d":
                # Quadrants' whole-vector adstack gives a wrong gradient here: check qd against
                # finite differences only.
                good = e_qd_fd <= TOL_FD and e_off_fd <= TOL_FD
            else:
                good = e_peer <= TOL_PEER and e_qd_fd <= TOL_FD and e_off_fd <= TOL_FD
            ok &= good
            rows.append({"k": k, "d": d, "q": q, "off": off, "scale": scale, "e_y": e_y,
                         "e_peer": e_peer, "e_qd_fd": e_qd_fd, "e_q_fd": e_q_fd,
                         "e_off_fd": e_off_fd, "good": good})
    print_table(rows, a.repeat, a.rounds, peak)
    return 0 if ok else 1


def met(b):
    return "met" if b else "NOT met"


def print_table(rows, repeat, rounds, peak):
    print(f"\nqd (cpu) vs Quadrants 1.3.3 (cpu, adstack), {os.cpu_count()} cores; times in ms, "
          f"best of {rounds} alternating rounds; steady state: the median of {repeat} runs after "
          f"the first (qd-run --repeat {repeat}; Quadrants' calls); Q/qd: how many times faster "
          f"qd is; qd off: qd-run --vectorize off")
    head = ("kernel", "fwd qd", "qd off", "fwd Q", "Q/qd", "bwd qd", "qd off", "bwd Q", "Q/qd",
            "compile qd f+g", "compile Q f+g", "qd/Q", "y qd~Q", "grad qd~Q", "qd~FD", "off~FD",
            "Q~FD", "check")
    fmt = ("{:<16}{:>8}{:>8}{:>8}{:>7}{:>8}{:>8}{:>8}{:>7}{:>16}{:>15}{:>6}{:>9}{:>11}{:>9}"
           "{:>9}{:>9}{:>7}")
    print(fmt.format(*head))
    for r in rows:
        d, q, off = r["d"], r["q"], r["off"]
        cq = q["compile_fwd"] + q["compile_grad"]
        cd = d["compile_fwd"] + d["compile_grad"]
        print(fmt.format(
            NAMES[r["k"]], f"{d['fwd']:.1f}", f"{off['fwd']:.1f}", f"{q['fwd']:.1f}",
            f"{q['fwd'] / d['fwd']:.2f}", f"{d['grad']:.1f}", f"{off['grad']:.1f}",
            f"{q['grad']:.1f}", f"{q['grad'] / d['grad']:.2f}",
            f"{d['compile_fwd']:.0f}+{d['compile_grad']:.0f}",
            f"{q['compile_fwd']:.0f}+{q['compile_grad']:.0f}", f"{cd / max(cq, 1e-9):.2f}",
            f"{r['e_y']:.1e}", f"{r['e_peer']:.1e}", f"{r['e_qd_fd']:.1e}",
            f"{r['e_off_fd']:.1e}", f"{r['e_q_fd']:.1e}", "ok" if r["good"] else "FAIL"))
    print(f"\ny qd~Q: relative difference of y after one forward (not checked: an f32 atomic sum of "
          f"up to 2^20 terms, in each system's order); grad columns: max |difference| / max "
          f"|reference| of x.grad (qd vs Quadrants, qd and qd off vs f64 central differences, "
          f"Quadrants vs them); check: grad qd~Q <= {TOL_PEER:g}, qd~FD and off~FD <= "
          f"{TOL_FD:g}; on (d) the FD checks only (Quadrants' local-array gradient is wrong).")
    print("compile: qd = parse + verify + lowering + LLVM (jit::PIPELINE) + JIT of the kernel, then "
          "autodiff (reverse-mode-ad, sizing) and the gradient's; Quadrants = its first call of "
          "the kernel, then of .grad (offline cache off), every trip count 0, less the same call "
          "made again (its launch).")

    n = peak["threads"]
    print(f"\nthroughput: GFLOP/s from the flop counts documented in bench.py (FLOPS); machine "
          f"peak by {peak['how']}: f32 FMA {peak['fma_gflops_1']:.0f} GFLOP/s on 1 core, "
          f"{peak['fma_gflops_all']:.0f} on {n}; memcpy {peak['copy_gbs_1']:.1f} GB/s on 1 "
          f"thread, {peak['copy_gbs_all']:.1f} on {n} (read + written). None of the kernels is "
          f"memory-bound (a few bytes per thread against 64+ steps): % peak is of the {n}-core FMA "
          f"peak.")
    head = ("kernel", "GFLOP fwd", "GFLOP bwd", "qd fwd", "% peak", "qd bwd", "% peak",
            "off fwd", "off bwd", "Q fwd", "Q bwd")
    fmt = "{:<16}{:>10}{:>10}{:>9}{:>8}{:>9}{:>8}{:>9}{:>9}{:>9}{:>9}"
    print(fmt.format(*head))
    top = peak["fma_gflops_all"]
    for r in rows:
        ff, fb = FLOPS[r["k"]]
        rate = lambda flops, ms: flops / (ms * 1e-3) / 1e9
        d, q, off = r["d"], r["q"], r["off"]
        print(fmt.format(
            NAMES[r["k"]], f"{ff / 1e9:.2f}", f"{fb / 1e9:.2f}",
            f"{rate(ff, d['fwd']):.1f}", f"{100 * rate(ff, d['fwd']) / top:.1f}",
            f"{rate(fb, d['grad']):.1f}", f"{100 * rate(fb, d['grad']) / top:.1f}",
            f"{rate(ff, off['fwd']):.1f}", f"{rate(fb, off['grad']):.1f}",
            f"{rate(ff, q['fwd']):.1f}", f"{rate(fb, q['grad']):.1f}"))

    if any(r["scale"] for r in rows):
        print("\nthreads: steady-state ms with 1 and 2 workers (qd-run --threads N; Quadrants "
              "qd.init(cpu_max_num_threads=N)), one round; speedup = 1 thread / 2 threads")
        head = ("kernel", "qd fwd 1", "2", "x", "qd bwd 1", "2", "x", "Q fwd 1", "2", "x",
                "Q bwd 1", "2", "x")
        fmt = "{:<16}" + "{:>9}{:>8}{:>6}" * 4
        print(fmt.format(*head))
        for r in rows:
            s = r["scale"]
            if not s:
                continue
            cells = []
            for who in ("qd", "Q"):
                for key in ("fwd", "grad"):
                    t1, t2 = s[(who, 1)][key], s[(who, 2)][key]
                    cells += [f"{t1:.1f}", f"{t2:.1f}", f"{t1 / t2:.2f}"]
            print(fmt.format(NAMES[r["k"]], *cells))

    print("\ntargets (issue 13):")
    for r in rows:
        k, d, q = r["k"], r["d"], r["q"]
        name = NAMES[k]
        if k == "a":
            print(f"  {name}: backward <= 3x qd's forward: {d['grad'] / d['fwd']:.2f}x, "
                  f"{met(d['grad'] <= 3 * d['fwd'])}; Quadrants' backward / qd's >= 10: "
                  f"{q['grad'] / d['grad']:.1f}, {met(q['grad'] >= 10 * d['grad'])}")
        if k == "b":
            print(f"  {name}: Quadrants' forward / qd's >= 3: {q['fwd'] / d['fwd']:.2f}, "
                  f"{met(q['fwd'] >= 3 * d['fwd'])}; backward >= 2: "
                  f"{q['grad'] / d['grad']:.2f}, {met(q['grad'] >= 2 * d['grad'])}")
        if k == "d":
            print(f"  {name}: Quadrants' backward / qd's >= 5: {q['grad'] / d['grad']:.1f}, "
                  f"{met(q['grad'] >= 5 * d['grad'])}")
        cq = q["compile_fwd"] + q["compile_grad"]
        cd = d["compile_fwd"] + d["compile_grad"]
        print(f"  {name}: compile kernel + gradient <= 1/3 of Quadrants' first calls: "
              f"{cd:.0f} vs {cq:.0f} ms ({cd / max(cq, 1e-9):.2f}), {met(3 * cd <= cq)}")


if __name__ == "__main__":
    sys.exit(main())
