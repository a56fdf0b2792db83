# SPDX-License-Identifier: BSD-3-Clause
"""A measurer in the shape of FD.io CSIT MLRsearch's AbstractMeasurer
(RFC 9971's trial measurement), over a dpdk-nbench --serve instance.  It
does not import CSIT: pass a Measurer wherever MLRsearch takes a measurer,

    from MLRsearch import MultipleLossRatioSearch, Config   # CSIT's
    search = MultipleLossRatioSearch(config)
    result = search.search(measurer=Measurer(client, size=64), ...)

The load is frames per second over all the test's TX ports together
(the CLI's --rate in pps); counts are frames.
"""
import time
from dataclasses import dataclass
from typing import Optional


@dataclass
class MeasurementResult:
    """The fields CSIT's MeasurementResult has, filled from the test's
    document: what was asked, what was offered, what came back."""
    intended_duration: float
    intended_load: float
    offered_count: int
    loss_count: int
    forwarding_count: int
    offered_duration: float
    duration_with_overheads: float
    intended_count: Optional[int] = None

    @property
    def loss_ratio(self):
        return self.loss_count / self.offered_count if self.offered_count \
            else 0.0


class Measurer:
    """measure(intended_duration, intended_load) -> MeasurementResult.
    options: any other run options (size=, streams=, ...)."""

    def __init__(self, client, **options):
        self.client = client
        self.options = options
        self.trials = []

    def measure(self, intended_duration, intended_load):
        opts = dict(self.options)
        opts["time"] = float(intended_duration)
        opts["rate"] = "%.3fpps" % float(intended_load)
        t0 = time.monotonic()
        doc = self.client.run(**opts)
        took = time.monotonic() - t0
        if "error" in doc:
            raise RuntimeError("trial failed: %s" % doc["error"])
        end = doc["end"]
        sent = end["sum_sent"]["packets"]
        got = end["sum_received"]["packets"]
        r = MeasurementResult(
            intended_duration=float(intended_duration),
            intended_load=float(intended_load),
            offered_count=sent, forwarding_count=got,
            loss_count=max(sent - got, 0),
            offered_duration=end["sum_sent"].get("seconds",
                                                 intended_duration),
            duration_with_overheads=took,
            intended_count=int(round(intended_duration * intended_load)))
        self.trials.append(r)
        return r


def bisect_ndr(measurer, lo, hi, precision, duration=1.0,
               loss_ratio=0.0):
    """The plain search this package needs without CSIT: the highest load
    between lo (assumed to pass) and hi whose trial loses at most
    loss_ratio, to within precision (frames/s).  Returns (lower, upper):
    the highest load seen passing, the lowest seen failing (None if hi
    passed)."""
    r = measurer.measure(duration, hi)
    if r.loss_ratio <= loss_ratio:
        return hi, None
    while hi - lo > precision:
        mid = (lo + hi) / 2
        if measurer.measure(duration, mid).loss_ratio <= loss_ratio:
            lo = mid
        else:
            hi = mid
    return lo, hi
