"""The shared examples (examples/*.mlir) driven from Python: fields set from NumPy, kernel
arguments as NumPy arrays, the gradient read back, and the adstack report.

    python python/examples/shared_examples.py [--device cpu] [NAME ...]

The inputs are the gradient corpus's (examples/grad/*.grad). `run()` also runs a module with
f64 in place of f32, which the tests use for central finite differences.
"""

import argparse
import os
import sys

import numpy as np

import qd

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))

# name: fields set before the launch, kernel arguments, the loss, the inputs to differentiate
# (fields or arguments), and the finite-difference step (and tolerance, default 1e-5).
SPECS = {
    "dynamic_loop": dict(
        fields={"n": 512, "x": np.linspace(0.0, 1.5, 16)},
        args={},
        loss="y",
        wrt=["x"],
        h=0.25,
        # y is affine in x (no truncation error), but the difference of two values of y ~ 3.2
        # loses digits of the 4e-12 gradient to rounding.
        fd_rtol=1e-3,
    ),
    "ndarray_bound": dict(
        fields={"x": np.linspace(0.1, 0.8, 8)},
        args={"a": np.array([0, 3, 7, 1, 12, 5, 0, 9], dtype=np.int32)},
        loss="y",
        wrt=["x"],
        h=1e-5,
    ),
    "local_array": dict(
        fields={"n": 40, "x": np.linspace(0.0, 1.0, 40).reshape(4, 10)},
        args={},
        loss="y",
        wrt=["x"],
        h=1e-5,
    ),
    "triangular": dict(
        fields={"m": 12, "x": np.linspace(0.5, 1.0, 4)},
        args={},
        loss="y",
        wrt=["x"],
        h=1e-5,
    ),
    "control_flow": dict(
        fields={"x": np.array([0, 0.5, 1, 2.5, 12, -0.1])},
        args={"w": np.array([0.5, -1.0, 2.0, 0.3, -0.2, 1.5]), "limit": 2.0},
        loss="y",
        wrt=["x", "w"],
        h=1e-6,
    ),
}


def load(name, f64=False):
    """The example's module; with f64=True, every f32 becomes f64."""
    path = os.path.join(ROOT, "examples", name + ".mlir")
    with open(path) as f:
        text = f.read()
    if f64:
        text = text.replace("f32", "f64")
    return qd.ir.Module.parse(text, filename=path)


class Example:
    """One example on one device: forward(inputs) -> loss, gradient(inputs) -> dict."""

    def __init__(self, name, device="cpu", f64=False):
        self.name, self.spec = name, SPECS[name]
        self.dtype = np.float64 if f64 else np.float32
        self.prog = qd.Program(load(name, f64), device=device)
        self.kernel = self.prog.kernel("compute")
        # Arguments as the kernel takes them: float arrays in the module's float type.
        self.args = {}
        for k, v in self.spec["args"].items():
            if isinstance(v, np.ndarray) and v.dtype.kind == "f":
                v = v.astype(self.dtype)
            self.args[k] = v

    def _reset(self, inputs):
        for f in self.prog.fields:
            self.prog[f] = 0
        for k, v in self.spec["fields"].items():
            self.prog[k] = inputs.get(k, v)
        for k in self.args:
            if k in inputs:
                self.args[k][...] = inputs[k]

    def forward(self, inputs=None):
        self._reset(inputs or {})
        self.kernel(**self.args)
        self.prog.sync()
        return float(self.prog[self.spec["loss"]])

    def gradient(self, inputs=None):
        """d loss / d input for every input of `wrt`: fields' adjoints and the arguments'."""
        self.forward(inputs)
        self.prog.clear_grads()
        self.prog[self.spec["loss"] + ".grad"] = 1.0
        adj = self.kernel.grad(**self.args)
        self.prog.sync()
        out = {}
        for w in self.spec["wrt"]:
            out[w] = np.array(adj[w] if w in self.args else self.prog[w + ".grad"], dtype=np.float64)
        return out

    def inputs(self):
        """The inputs to differentiate, as float64 arrays."""
        src = {**self.spec["fields"], **self.spec["args"]}
        return {w: np.array(src[w], dtype=np.float64) for w in self.spec["wrt"]}

    def finite_differences(self):
        """Central differences of the loss over every element of every input of `wrt`."""
        h, base = self.spec["h"], self.inputs()
        out = {}
        for w, x in base.items():
            g = np.zeros_like(x)
            for i in np.ndindex(x.shape):
                plus, minus = x.copy(), x.copy()
                plus[i] += h
                minus[i] -= h
                fp = self.forward({**base, w: plus})
                fm = self.forward({**base, w: minus})
                g[i] = (fp - fm) / (2 * h)
            out[w] = g
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("names", nargs="*", default=list(SPECS))
    opts = ap.parse_args()
    for name in opts.names:
        ex = Example(name, device=opts.device)
        y = ex.forward()
        grads = ex.gradient()
        print(f"{name}: {ex.spec['loss']} = {y:.6g}")
        for w, g in grads.items():
            print(f"  d{ex.spec['loss']}/d{w} = {np.array2string(g.ravel()[:8], precision=5)}"
                  + (" ..." if g.size > 8 else ""))
        for s in ex.prog.adstack_report():
            kept = "elided" if s["elided"] else f"depth {s['depth']}, {s['bytes_per_thread']} B/thread"
            print(f"  adstack {s['id']} of {s['kernel']} at {s['line']}:{s['column']}: {kept}"
                  f" (bound {s['size_expr']})")


if __name__ == "__main__":
    sys.exit(main())
