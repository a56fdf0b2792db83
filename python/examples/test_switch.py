# SPDX-License-Identifier: BSD-3-Clause
"""A pytest example: the zero-loss throughput of the device between a
dpdk-nbench --serve instance's ports, found by a search over the
Measurer, must reach a floor.

    NBENCH_API=unix:/run/dpdk-nbench/gen.sock NBENCH_FLOOR_PPS=1e6 \\
        NBENCH_MAX_PPS=14.88e6 pytest python/examples/test_switch.py
"""
import os

import pytest

from nbench import Client
from nbench.mlrsearch import Measurer, bisect_ndr

API = os.environ.get("NBENCH_API")
KEY = os.environ.get("NBENCH_KEY")          # the key file, if any
FLOOR = float(os.environ.get("NBENCH_FLOOR_PPS", "0"))
MAX = float(os.environ.get("NBENCH_MAX_PPS", "14.88e6"))
SIZE = int(os.environ.get("NBENCH_SIZE", "64"))


@pytest.fixture
def client():
    if API is None:
        pytest.skip("set NBENCH_API to a dpdk-nbench --serve socket")
    with Client(API, key=KEY) as c:
        yield c


def test_ndr_reaches_the_floor(client):
    m = Measurer(client, size=SIZE)
    lower, upper = bisect_ndr(m, 0.0, MAX, precision=MAX / 200,
                              duration=2.0)
    assert lower >= FLOOR, "NDR %.0f fps (a trial at %s lost) below the " \
        "floor %.0f" % (lower, upper, FLOOR)
