import os
import sys

import pytest

import qd

HERE = os.path.dirname(__file__)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))

LAVAPIPE = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


def _vulkan_ok():
    if not os.path.exists(LAVAPIPE):
        return False
    try:
        qd.Program(qd.ir.Module.parse("module {}"), device="vulkan")
        return True
    except qd.DeviceError:
        return False


DEVICES = ["interp", "interp-lowered", "cpu"] + (["vulkan"] if _vulkan_ok() else [])


def example_path(name):
    return os.path.join(ROOT, "examples", name)


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param
