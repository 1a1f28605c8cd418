# lit configuration for qd. Run through `cargo test` (tools/qd-opt/tests/lit.rs) or directly:
#   QD_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -sv lit-tests
import os
import platform
import shutil

import lit.formats

config.name = "qd"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
project_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(project_root, "target", "lit")

llvm_bin = "/usr/lib/llvm-22/bin"
qd_bin = os.environ.get("QD_BIN_DIR", os.path.join(project_root, "target", "debug"))
for tool in ["qd-opt", "qd-run"]:
    if not os.path.exists(os.path.join(qd_bin, tool)):
        lit_config.fatal("%s not found in %s (run `cargo build --workspace`, or set QD_BIN_DIR)" % (tool, qd_bin))

# Our tools first, then LLVM 22's FileCheck, not and mlir-opt.
config.environment["PATH"] = os.pathsep.join([qd_bin, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# qd-translate links LLVM and is built by its own crate; its tests (lit-tests/translate) run from
# tools/qd-translate/tests, which sets QD_REQUIRE_TRANSLATE so that a missing binary fails.
if os.path.exists(os.path.join(qd_bin, "qd-translate")):
    config.available_features.add("qd-translate")
elif os.environ.get("QD_REQUIRE_TRANSLATE"):
    lit_config.fatal("qd-translate not found in %s" % qd_bin)

# x86 hosts: the cpu device's streaming stores and fences (lit-tests/translate/nontemporal.mlir).
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86")

if shutil.which("mlir-opt", path=llvm_bin):
    config.available_features.add("mlir-opt")
