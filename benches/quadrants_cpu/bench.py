#!/usr/bin/env python3
"""qd (device cpu) and Quadrants 1.3.3 (arch=cpu, adstack on) side by side, on this machine.

Four kernels, each written once as a qd kernel (the .mlir files next to this script) and once as
its Taichi-style Quadrants equivalent (below):

  (a) linear: v = v*0.95 + 0.01, n = 64 iterations read from a field, N = 2^20 threads
  (b) sin:    v = sin(v)*0.9 + 0.1, trip count a[i] = 64 read from an ndarray, N = 2^20
  (c) triangular: examples/triangular.mlir scaled up (N = 16384 threads, m = 32)
  (d) local array: 64 f32 updated at a dynamic index (t mod 64), N = 4096 threads, n = 1024 steps

For each: steady-state forward and backward times (medians of --repeat runs after the first),
first-call compile time of the kernel and of its gradient, and the ratios qd / Quadrants. The
gradients are checked: qd against Quadrants within f32 tolerance, and both against f64 central
finite differences (on (d) Quadrants is known to be wrong, so there qd is checked against finite
differences only). Run through run.sh, which makes the venv and builds qd-run.

Usage: bench.py --qd-run PATH [--repeat N] [--rounds N] [--only abcd]
       bench.py --quadrants KERNEL ...   (internal: one Quadrants kernel in a fresh process)
"""

import argparse
import json
import os
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
    qd.init(arch=qd.cpu, ad_stack_experimental_enabled=True, offline_cache=False,
            src_ll_cache=False)
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
    out = {"first_fwd": first_fwd, "first_grad": first_grad, "fwd": statistics.median(fwd),
           "grad": statistics.median(grad), "y": float(y[None])}
    with open(a.out, "w") as f:
        json.dump(out, f)


def run_quadrants(kernel, x_npy, tmp, repeat):
    out, g = os.path.join(tmp, f"q_{kernel}.json"), os.path.join(tmp, f"q_{kernel}_grad.npy")
    cmd = [sys.executable, os.path.abspath(__file__), "--quadrants", kernel, "--x", x_npy,
           "--out", out, "--grad-out", g, "--repeat", str(repeat)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"Quadrants failed on ({kernel}):\n{r.stdout}{r.stderr}")
    with open(out) as f:
        res = json.load(f)
    res["x.grad"] = np.load(g)
    # The first calls ran no loop iteration: they are the compile (and a launch).
    res["compile_fwd"] = res["first_fwd"]
    res["compile_grad"] = res["first_grad"]
    return res


# ---- qd ------------------------------------------------------------------------------------------

def qd_run(qd, kernel, extra, x_npy):
    cmd = [qd] + qd_args(kernel, x_npy) + ["--kernel", "compute", "--device", "cpu", "--json"]
    r = subprocess.run(cmd + extra, capture_output=True, text=True, cwd=HERE)
    if r.returncode != 0:
        raise SystemExit(f"qd-run failed on ({kernel}): {' '.join(cmd + extra)}\n{r.stderr}")
    return json.loads(r.stdout)


def run_qd(qd, kernel, x_npy, tmp, repeat):
    g = os.path.join(tmp, f"qd_{kernel}_grad.npy")
    # One process: the first run (its compile, and the printed and saved results: one forward,
    # one gradient), then `repeat` timed repetitions from the same inputs.
    out = qd_run(qd, kernel, ["--grad", "y=1", "--print", "y", "--save", f"x.grad={g}",
                              "--repeat", str(repeat)], x_npy)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--qd-run", help="the qd-run binary (release)")
    ap.add_argument("--repeat", type=int, default=5, help="steady-state runs after the first")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternate rounds of both systems; each keeps its best")
    ap.add_argument("--only", default="abcd", help="which kernels (letters)")
    ap.add_argument("--quadrants", help=argparse.SUPPRESS)
    ap.add_argument("--x", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--grad-out", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.quadrants:
        return quadrants_main(a)
    if not a.qd_run:
        ap.error("--qd-run is required")
    qd = os.path.abspath(a.qd_run)
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for k in a.only:
            x = inputs(k)
            x_npy = os.path.join(tmp, f"x_{k}.npy")
            np.save(x_npy, x)
            # Rounds alternate the two systems, and each time keeps its best round: on a shared
            # machine, other work only ever slows a run down.
            qs, ds = [], []
            for r in range(a.rounds):
                print(f"{NAMES[k]}, round {r + 1}/{a.rounds}: Quadrants, qd", file=sys.stderr,
                      flush=True)
                qs.append(run_quadrants(k, x_npy, tmp, a.repeat))
                ds.append(run_qd(qd, k, x_npy, tmp, a.repeat))
            q, d = best(qs), best(ds)
            fd = finite_differences(k, x)
            e_y = abs(d["y"] - q["y"]) / max(abs(q["y"]), 1e-30)
            e_peer = rel_err(d["x.grad"], q["x.grad"])
            e_qd_fd, e_q_fd = rel_err(d["x.grad"], fd), rel_err(q["x.grad"], fd)
            if k == "d":
                # Quadrants' whole-vector adstack gives a wrong gradient here: check qd against
                # finite differences only.
                good = e_qd_fd <= TOL_FD
            else:
                good = e_peer <= TOL_PEER and e_qd_fd <= TOL_FD
            ok &= good
            rows.append((k, d, q, e_y, e_peer, e_qd_fd, e_q_fd, good))
    print_table(rows, a.repeat, a.rounds)
    return 0 if ok else 1


def print_table(rows, repeat, rounds):
    print(f"\nqd (cpu) vs Quadrants 1.3.3 (cpu, adstack), {os.cpu_count()} cores; times in ms, "
          f"best of {rounds} alternating rounds; steady state: the median of {repeat} runs after "
          f"the first (qd-run --repeat {repeat}; Quadrants' calls)")
    head = ("kernel", "fwd qd", "fwd Q", "qd/Q", "bwd qd", "bwd Q", "qd/Q",
            "compile qd f+g", "compile Q f+g", "qd/Q", "y qd~Q", "grad qd~Q", "qd~FD", "Q~FD",
            "check")
    fmt = "{:<16}{:>9}{:>9}{:>7}{:>9}{:>9}{:>7}{:>17}{:>17}{:>7}{:>9}{:>11}{:>9}{:>9}{:>7}"
    print(fmt.format(*head))
    for k, d, q, e_y, e_peer, e_qd_fd, e_q_fd, good in rows:
        cq = q["compile_fwd"] + q["compile_grad"]
        cd = d["compile_fwd"] + d["compile_grad"]
        print(fmt.format(
            NAMES[k], f"{d['fwd']:.1f}", f"{q['fwd']:.1f}", f"{d['fwd'] / q['fwd']:.2f}",
            f"{d['grad']:.1f}", f"{q['grad']:.1f}", f"{d['grad'] / q['grad']:.2f}",
            f"{d['compile_fwd']:.0f}+{d['compile_grad']:.0f}",
            f"{q['compile_fwd']:.0f}+{q['compile_grad']:.0f}", f"{cd / cq:.2f}", f"{e_y:.1e}",
            f"{e_peer:.1e}", f"{e_qd_fd:.1e}", f"{e_q_fd:.1e}", "ok" if good else "FAIL"))
    print(f"\ny qd~Q: relative difference of y after one forward (not checked: an f32 atomic sum of "
          f"up to 2^20 terms, in each system's order); grad columns: max |difference| / max "
          f"|reference| of x.grad (qd vs Quadrants, qd vs f64 central differences, Quadrants vs "
          f"them); check: grad qd~Q <= {TOL_PEER:g} and qd~FD <= {TOL_FD:g}; on (d) qd~FD only "
          f"(Quadrants' local-array gradient is wrong).")
    print("compile: qd = parse + verify + lowering + LLVM O3 + JIT of the kernel, then autodiff "
          "(reverse-mode-ad, sizing) and the gradient's; Quadrants = its first call of the kernel, then of .grad (offline cache "
          "off), with every trip count 0 so that they do next to nothing but compile.")
    targets = [(NAMES[k], d["grad"] <= q["grad"],
                d["compile_fwd"] + d["compile_grad"] <= q["compile_fwd"] + q["compile_grad"])
               for k, d, q, *_ in rows]
    for name, bwd, comp in targets:
        print(f"target {name}: backward qd <= Quadrants {'met' if bwd else 'NOT met'}; "
              f"compile qd <= Quadrants {'met' if comp else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
