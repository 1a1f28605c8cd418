"""Exports every kernel of every example (examples/*.mlir, examples/grad/*.mlir) and its gradient
with `qd-translate --emit=mlir`, and verifies each module with mlir-opt (registered dialects only,
no --allow-unregistered-dialect). Prints one line per failure and a closing count line."""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

root = sys.argv[1]
mlir_opt = sys.argv[2]
files = sorted(glob.glob(os.path.join(root, "examples", "*.mlir")) +
               glob.glob(os.path.join(root, "examples", "grad", "*.mlir")))
jobs = []
for f in files:
    for kernel in re.findall(r"qd\.kernel @([A-Za-z0-9_$.]+)", open(f).read()):
        for grad in ([], ["--grad"]):
            jobs.append((f, kernel, grad))


def check(job):
    """(exported, verified, failure message or None) for one kernel."""
    f, kernel, grad = job
    what = "%s @%s%s" % (os.path.relpath(f, root), kernel, " --grad" if grad else "")
    r = subprocess.run(["qd-translate", f, "--kernel", kernel, "--emit=mlir"] + grad,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return (0, 0, "EXPORT FAILED %s: %s" % (what, r.stderr.strip().splitlines()[:3]))
    # Nothing of qd's dialects is left (a kernel without tasks is an empty module).
    if re.search(r"\b(qd|lowered|ad|adstack)\.[a-z_]+", r.stdout):
        return (1, 0, "NOT UPSTREAM %s" % what)
    v = subprocess.run([mlir_opt, "-o", os.devnull], input=r.stdout, capture_output=True,
                       text=True)
    if v.returncode != 0:
        return (1, 0, "VERIFY FAILED %s: %s" % (what, v.stderr.strip().splitlines()[:3]))
    return (1, 1, None)


with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    results = list(pool.map(check, jobs))
for _, _, msg in results:
    if msg:
        print(msg)
exported = sum(r[0] for r in results)
verified = sum(r[1] for r in results)
failed = sum(1 for r in results if r[2])
print("%d exported, %d verified by mlir-opt, %d failed" % (exported, verified, failed))
if verified < 100:
    print("TOO FEW KERNELS")
