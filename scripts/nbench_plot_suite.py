# SPDX-License-Identifier: BSD-3-Clause
"""The charts of a dpdk-nbench suite or size sweep (--test, --size
MIN:MAX:*F), for scripts/nbench-plot:

  PREFIX-suite-throughput.png  throughput (each loss tolerance) and the
                               line rate against frame size, in Mpps, with
                               the share of line below
  PREFIX-suite-latency.png     latency (min, p50, p99, p99.9, max) against
                               frame size, from the latency test or sweep
  PREFIX-suite-trials.png      every trial's asked rate against time,
                               passes and failures marked, per test

A document is a suite when it has a "suite" object (--json), or "trial"
events (--json-stream)."""

import math

L1_OVERHEAD = 20


def is_suite(doc):
    return isinstance(doc, dict) and isinstance(doc.get("suite"), dict)


def from_events(events):
    """start, trial..., end events of --json-stream into the document
    shape of --json (None when the events are not a suite's)."""
    start, trials, end = None, [], None
    for ev in events:
        kind, data = ev.get("event"), ev.get("data")
        if kind == "start" and isinstance(data, dict):
            start = data
        elif kind == "trial" and isinstance(data, dict):
            trials.append(data)
        elif kind == "end" and isinstance(data, dict):
            end = data
    if start is None or "tests" not in start or end is None:
        return None
    return {"start": start, "end": end,
            "suite": {"trials": trials,
                      "results": end.get("results") or [],
                      "interrupted": bool(end.get("interrupted"))}}


def _num(d, key):
    v = d.get(key) if isinstance(d, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v if math.isfinite(v) else None


def _rows(doc, test):
    return [r for r in doc["suite"].get("results") or []
            if isinstance(r, dict) and r.get("test") == test
            and isinstance(r.get("size"), int)]


def _title(doc):
    s = doc.get("start") or {}
    tests = ", ".join(t for t in s.get("tests") or [] if isinstance(t, str))
    line = _num(s, "line_l1_bps")
    text = f"{s.get('topology', '?')}: {tests or 'suite'}"
    if line:
        text += f", line {line / 1e9:g} Gbit/s"
    if doc["suite"].get("interrupted"):
        text += " (interrupted)"
    return text


def _figure(plt, title, subtitle, rows=1):
    fig, axes = plt.subplots(rows, 1, figsize=(9, 5 if rows == 1 else 7),
                             dpi=100, sharex=True, squeeze=False)
    fig.suptitle(f"{title}\n{subtitle}", fontsize=10)
    return fig, [a[0] for a in axes]


def _size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes], rotation=45)
    ax.set_xlabel("frame size (bytes, incl. FCS)")


def plot_throughput(plt, doc, path, written, save):
    thr = _rows(doc, "throughput")
    sweep = [r for r in _rows(doc, "sweep")
             if isinstance(r.get("result"), dict)]
    if not thr and not sweep:
        return False
    line = _num(doc.get("start") or {}, "line_l1_bps")
    fig, (ax, ax2) = _figure(plt, _title(doc),
                             "throughput against frame size", rows=2)
    sizes = sorted({r["size"] for r in thr + sweep})
    if line:
        xs = [sizes[0] * 2 ** (k / 16) for k in
              range(int(16 * math.log2(sizes[-1] / sizes[0])) + 1)] \
            if len(sizes) > 1 else sizes
        ax.plot(xs, [line / ((x + L1_OVERHEAD) * 8) / 1e6 for x in xs],
                color="grey", linestyle="--", label="line rate")
    ntol = max((len(r.get("bounds") or []) for r in thr), default=0)
    for g in range(ntol):
        pts = []
        for r in thr:
            b = (r.get("bounds") or [])[g:g + 1]
            if b and _num(b[0], "pps") is not None:
                pts.append((r["size"], b[0]["pps"],
                            _num(b[0], "percent_of_line"),
                            _num(b[0], "loss_tolerance") or 0))
        if not pts:
            continue
        pts.sort()
        tol = pts[0][3]
        label = "NDR (loss 0)" if tol == 0 else f"loss <= {tol * 100:g} %"
        ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker="o",
                label=label)
        if line:
            ax2.plot([p[0] for p in pts], [p[2] or 0 for p in pts],
                     marker="o", label=label)
    if sweep:
        pts = sorted((r["size"], _num(r["result"], "rx_pps") or 0,
                      r["result"].get("req_pps")) for r in sweep)
        ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker="s",
                label="received (sweep)")
        if line:
            ax2.plot([p[0] for p in pts],
                     [100 * p[1] * (p[0] + L1_OVERHEAD) * 8 / line
                      for p in pts], marker="s", label="received (sweep)")
    ax.set_yscale("log")  # the line rate spans 150x from 64 to 9000 B
    ax.set_ylabel("Mpps")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    ax2.set_ylabel("% of line (L1)")
    ax2.set_ylim(bottom=0)
    ax2.ticklabel_format(axis="y", useOffset=False, style="plain")
    ax2.grid(True, alpha=0.3)
    if not line:
        ax2.text(0.5, 0.5, "line rate unknown (no link speed)",
                 ha="center", va="center", transform=ax2.transAxes)
    _size_axis(ax2, sizes)
    save(fig, path, written)
    return True


def plot_latency(plt, doc, path, written, save):
    rows = [(r["size"], r.get("latency")) for r in _rows(doc, "latency")]
    rows += [(r["size"], (r.get("result") or {}).get("latency"))
             for r in _rows(doc, "sweep")]
    rows = sorted((s, l) for s, l in rows
                  if isinstance(l, dict) and _num(l, "count"))
    if not rows:
        return False
    fig, (ax,) = _figure(plt, _title(doc), "latency against frame size")
    sizes = [s for s, _ in rows]
    for key, label, style in (("min_ns", "min", ":"), ("p50_ns", "p50", "-"),
                              ("p99_ns", "p99", "-"),
                              ("p99_9_ns", "p99.9", "-"),
                              ("max_ns", "max", ":")):
        ys = [(_num(l, key) or 0) / 1e3 for _, l in rows]
        ax.plot(sizes, ys, marker="o", linestyle=style, label=label)
    ax.set_yscale("log")
    ax.set_ylabel("latency (us)")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    _size_axis(ax, sizes)
    save(fig, path, written)
    return True


def plot_trials(plt, doc, path, written, save):
    trials = [t for t in doc["suite"].get("trials") or []
              if isinstance(t, dict) and _num(t, "start") is not None]
    if not trials:
        return False
    fig, (ax,) = _figure(plt, _title(doc),
                         "each trial's asked rate against time (o pass, "
                         "x fail)")
    tests = []
    for t in trials:
        if t.get("test") not in tests:
            tests.append(t.get("test"))
    for k, test in enumerate(tests):
        color = f"C{k % 10}"
        for passed, marker in ((True, "o"), (False, "x")):
            pts = [(t["start"], (_num(t, "req_pps") or _num(t, "tx_pps")
                                 or 0) / 1e6)
                   for t in trials if t.get("test") == test
                   and bool(t.get("pass")) == passed]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts],
                           color=color, marker=marker,
                           label=f"{test} {'pass' if passed else 'fail'}")
    ax.set_xlabel("time since the suite began (s)")
    ax.set_ylabel("asked rate (Mpps)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, path, written)
    return True


def plot_suite(plt, doc, out, written, save, note):
    """Every suite chart the document has data for; out(kind) names the
    file."""
    done = 0
    for kind, fn in (("suite-throughput", plot_throughput),
                     ("suite-latency", plot_latency),
                     ("suite-trials", plot_trials)):
        if fn(plt, doc, out(kind), written, save):
            done += 1
        else:
            note(f"note: no data for the {kind} chart")
    return done
