"""Exports every kernel of every example (examples/*.mlir, examples/grad/*.mlir) and its gradient
with `qd-translate --emit=mlir`, and verifies each module with mlir-opt (registered dialects only,
no --allow-unregistered-dialect). Prints one line per failure and a closing count line."""
import glob
import os
import re
import subprocess
import sys

root = sys.argv[1]
mlir_opt = sys.argv[2]
files = sorted(glob.glob(os.path.join(root, "examples", "*.mlir")) +
               glob.glob(os.path.join(root, "examples", "grad", "*.mlir")))
exported = verified = failed = 0
for f in files:
    text = open(f).read()
    for kernel in re.findall(r"qd\.kernel @([A-Za-z0-9_$.]+)", text):
        for grad in ([], ["--grad"]):
            what = "%s @%s%s" % (os.path.relpath(f, root), kernel, " --grad" if grad else "")
            r = subprocess.run(["qd-translate", f, "--kernel", kernel, "--emit=mlir"] + grad,
                               capture_output=True, text=True)
            if r.returncode != 0:
                print("EXPORT FAILED %s: %s" % (what, r.stderr.strip().splitlines()[:3]))
                failed += 1
                continue
            exported += 1
            # Nothing of qd's dialects is left (a kernel without tasks is an empty module).
            if re.search(r"\b(qd|lowered|ad|adstack)\.[a-z_]+", r.stdout):
                print("NOT UPSTREAM %s" % what)
                failed += 1
                continue
            v = subprocess.run([mlir_opt, "-o", os.devnull],
                               input=r.stdout, capture_output=True, text=True)
            if v.returncode != 0:
                print("VERIFY FAILED %s: %s" % (what, v.stderr.strip().splitlines()[:3]))
                failed += 1
                continue
            verified += 1
print("%d exported, %d verified by mlir-opt, %d failed" % (exported, verified, failed))
if verified < 100:
    print("TOO FEW KERNELS")
