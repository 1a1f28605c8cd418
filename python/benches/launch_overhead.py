"""Per-launch overhead of a trivial kernel from Python: qd next to Quadrants (the peer), in one
run, on the CPU.

    pip install ./python quadrants==1.3.3   # qd in release; the peer from PyPI
    python python/benches/launch_overhead.py [--launches N] [--rounds R] [--threads T]

Three shapes, each a kernel whose body is one store, so the time is the launch path: Python
call, argument checks, dispatch to the thread pool and back.

  field    no arguments; stores 1.0 into a scalar field
  scalar   one f32 scalar argument, stored into the field
  ndarray  a NumPy float32 array (8 elements) and a scalar; stores the scalar into a[0]

For each, `launch` is N launches then one sync, divided by N (what a loop of launches costs);
`launch+sync` syncs after every launch. Each system runs R alternating rounds and keeps its
best. The last column is Quadrants' time over qd's: above 1, qd's launches are cheaper.
"""

import argparse
import os
import time

# NumPy's BLAS threads would compete with both systems' workers for the cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import qd  # noqa: E402

QD_MODULE = """module {
  qd.field @y : !qd.field<f32>
  qd.kernel @field() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      %one = arith.constant 1.0 : f32
      qd.store %one, @y[] : f32
    }
  }
  qd.kernel @scalar(%s: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      qd.store %s, @y[] : f32
    }
  }
  qd.kernel @ndarray(%a: !qd.ndarray<?xf32>, %s: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %i = %c0 to %c1 : i32 {
      qd.ndarray_store %s, %a[%c0] : !qd.ndarray<?xf32>
    }
  }
}
"""


def qd_setup(threads):
    prog = qd.Program(qd.ir.Module.parse(QD_MODULE), device="cpu", threads=threads)
    a = np.zeros(8, dtype=np.float32)
    kf, ks, kn = prog.kernel("field"), prog.kernel("scalar"), prog.kernel("ndarray")
    calls = {
        "field": lambda: kf(),
        "scalar": lambda: ks(2.0),
        "ndarray": lambda: kn(a, 2.0),
    }
    check = {
        "field": lambda: float(prog["y"]) == 1.0,
        "scalar": lambda: float(prog["y"]) == 2.0,
        "ndarray": lambda: a[0] == 2.0,
    }
    return calls, prog.sync, check


def quadrants_setup(threads):
    import quadrants as q

    kw = {"cpu_max_num_threads": threads} if threads else {}
    q.init(arch=q.cpu, offline_cache=False, print_preprocessed_ir=False, **kw)
    y = q.field(q.f32, shape=())
    a = np.zeros(8, dtype=np.float32)

    @q.kernel
    def field():
        for _ in range(1):
            y[None] = 1.0

    @q.kernel
    def scalar(s: q.f32):
        for _ in range(1):
            y[None] = s

    @q.kernel
    def ndarray(arr: q.types.ndarray(dtype=q.f32, ndim=1), s: q.f32):
        for _ in range(1):
            arr[0] = s

    calls = {
        "field": lambda: field(),
        "scalar": lambda: scalar(2.0),
        "ndarray": lambda: ndarray(a, 2.0),
    }
    check = {
        "field": lambda: float(y[None]) == 1.0,
        "scalar": lambda: float(y[None]) == 2.0,
        "ndarray": lambda: a[0] == 2.0,
    }
    return calls, q.sync, check


def per_launch(call, sync, n, sync_each):
    call()  # compile and warm up
    sync()
    t = time.perf_counter()
    if sync_each:
        for _ in range(n):
            call()
            sync()
    else:
        for _ in range(n):
            call()
        sync()
    return (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="worker threads of both (0: default)")
    opts = ap.parse_args()
    threads = opts.threads or None
    systems = {"qd": qd_setup(threads), "Quadrants": quadrants_setup(opts.threads)}
    best = {}
    for _ in range(opts.rounds):
        for sysname, (calls, sync, check) in systems.items():
            for shape, call in calls.items():
                for sync_each in (False, True):
                    n = opts.launches // (4 if sync_each else 1)
                    t = per_launch(call, sync, n, sync_each)
                    key = (sysname, shape, sync_each)
                    best[key] = min(best.get(key, t), t)
                    assert check[shape](), f"{sysname} {shape}: wrong result"
    print(f"per-launch overhead from Python, cpu, best of {opts.rounds} rounds "
          f"({opts.launches} launches per measurement)")
    print(f"{'kernel':10} {'mode':12} {'qd us':>9} {'Quadrants us':>13} {'Q/qd':>7}")
    ratios = []
    for shape in ["field", "scalar", "ndarray"]:
        for sync_each, mode in ((False, "launch"), (True, "launch+sync")):
            a = best[("qd", shape, sync_each)] * 1e6
            b = best[("Quadrants", shape, sync_each)] * 1e6
            ratios.append(b / a)
            print(f"{shape:10} {mode:12} {a:9.2f} {b:13.2f} {b / a:7.2f}")
    geo = float(np.exp(np.mean(np.log(ratios))))
    print(f"geometric mean Q/qd: {geo:.2f} ({'qd lower' if geo > 1 else 'Quadrants lower'})")


if __name__ == "__main__":
    main()
