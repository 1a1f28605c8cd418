"""Pass pipelines: run(module, "reverse-mode-ad,determine-ad-stack-size") (MLIR's pipeline
grammar; a bare list runs on the module, or anchor it: "builtin.module(cse,qd.kernel(dce))"),
list() of the registered passes, describe() as qd-opt --list-passes prints it."""

from ._qd import describe, list, run

__all__ = ["describe", "list", "run"]


def names():
    """The registered pass names."""
    return [p["name"] for p in list()]
