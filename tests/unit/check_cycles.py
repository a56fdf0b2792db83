#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""No two source files call each other in a circle, and no header includes
itself round a circle.

Calls: for each object file of the executable and the libraries, `nm` gives
the symbols it defines and the ones it uses; file A depends on file B when
A uses a symbol B defines.  Includes: the #include "..." lines of the
project's headers and sources.  Either graph having a cycle fails the test,
naming the files in it.

Usage: check_cycles.py SOURCE_ROOT OBJECT_DIR...
"""
import os
import re
import subprocess
import sys


def objects(dirs):
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith(".o"):
                    yield os.path.join(root, f)


def source_of(obj):
    # meson names objects <dir>_<file>.c.o in <target>.p/
    return os.path.basename(obj)[:-2]


def call_graph(dirs):
    defs, uses = {}, {}
    for obj in objects(dirs):
        out = subprocess.run(["nm", obj], capture_output=True, text=True,
                             check=True).stdout
        name = source_of(obj)
        uses[name] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRC":
                defs.setdefault(parts[2], name)
    return {a: {defs[s] for s in u if s in defs and defs[s] != a}
            for a, u in uses.items()}


def include_graph(root):
    files = {}
    for sub in ("app", "pmd_glue"):
        for r, _, fs in os.walk(os.path.join(root, sub)):
            for f in fs:
                if f.endswith(".h") or f.endswith(".c"):
                    files[f] = os.path.join(r, f)
    graph = {}
    for f, path in files.items():
        with open(path) as fh:
            inc = re.findall(r'^#include "([^"]+)"', fh.read(), re.M)
        graph[f] = {os.path.basename(i) for i in inc
                    if os.path.basename(i) in files and
                    os.path.basename(i) != f}
    return graph


def find_cycle(graph):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    root, dirs = sys.argv[1], sys.argv[2:]
    calls = call_graph(dirs)
    if len(calls) < 10:
        print("only %d object files found in %s" % (len(calls), dirs))
        return 1
    bad = 0
    for kind, graph in (("calls", calls), ("includes", include_graph(root))):
        c = find_cycle(graph)
        if c:
            print("cycle in %s: %s" % (kind, " -> ".join(c)))
            bad = 1
        else:
            print("%s: %d files, no cycle" % (kind, len(graph)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
