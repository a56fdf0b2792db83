#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The source tree's shape, as docs/architecture.md draws it.

1. Floors: each folder of app/ and pmd_glue/ has a floor (FLOORS below);
   a file may include a header of another folder only when that folder's
   floor is lower, so every arrow between folders points down and no two
   folders include each other.
2. Sizes: no .c or .h file in app/ or pmd_glue/ above MAX_LINES lines.
3. Functions: none above MAX_FUNC lines, unless it is named in
   docs/architecture.md's "Long functions" section (a bullet starting
   with the function's name in backquotes) with the reason.
4. Names: every function a .c file defines without `static` starts with
   nb_ (main aside).

Usage: check_layers.py SOURCE_ROOT
"""
import os
import re
import sys

FLOORS = {
    "app/core": 0,
    "pmd_glue": 1,
    "app/worker": 2,
    "app/control": 2,
    "app/state": 3,
    "app/stats": 4,
    "app/run": 5,
    "app/peer": 6,
    "app/serve": 6,
    "app": 7,
}
MAX_LINES = 700
MAX_FUNC = 80

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for top in ("app", "pmd_glue"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), root)


def long_allowed(root):
    path = os.path.join(root, "docs", "architecture.md")
    names, inside = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                inside = "long functions" in line.lower()
                continue
            m = re.match(r"^[-*] `(\w+)`", line)
            if inside and m:
                names.add(m.group(1))
    return names


def functions(text):
    """(name, first line, lines, static) of each function defined."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            # the signature: back to the line after the last blank,
            # comment end or '}' before it
            j = i - 1
            sig = []
            while j >= 0 and lines[j].strip() and \
                    not lines[j].rstrip().endswith(("*/", "}", ";")):
                sig.insert(0, lines[j])
                j -= 1
            head = " ".join(sig)
            m = sig and re.match(r"[A-Za-z_]", sig[0]) and "(" in head \
                and not head.startswith(("struct", "union", "enum",
                                         "typedef"))
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            if m and "=" not in head.split("(")[0]:
                name = re.search(r"(\w+)\s*\(", head).group(1)
                out.append((name, i + 1, k - i + 1,
                            head.lstrip().startswith("static")
                            or " static " in " " + head))
            i = k
        i += 1
    return out


def main(root):
    bad = []
    allowed = long_allowed(root)
    files = list(sources(root))
    where = {}
    for p in files:
        where.setdefault(os.path.basename(p), []).append(os.path.dirname(p))
    for p in files:
        d = os.path.dirname(p)
        if d not in FLOORS:
            bad.append("%s: folder %s has no floor in check_layers.py"
                       % (p, d))
            continue
        with open(os.path.join(root, p), encoding="utf-8") as f:
            text = f.read()
        n = text.count("\n")
        if n > MAX_LINES:
            bad.append("%s: %d lines (at most %d)" % (p, n, MAX_LINES))
        for h in INCLUDE.findall(text):
            for hd in where.get(os.path.basename(h), []):
                if hd != d and FLOORS.get(hd, 99) >= FLOORS[d]:
                    bad.append("%s includes %s/%s: floor %d is not below "
                               "%s's %d" % (p, hd, os.path.basename(h),
                                            FLOORS.get(hd, 99), d,
                                            FLOORS[d]))
        if not p.endswith(".c"):
            continue
        for name, line, length, static in functions(text):
            if length > MAX_FUNC and name not in allowed:
                bad.append("%s:%d: %s() is %d lines (at most %d, or named "
                           "in docs/architecture.md's Long functions)"
                           % (p, line, name, length, MAX_FUNC))
            if not static and not name.startswith("nb_") and name != "main":
                bad.append("%s:%d: %s() is exported without the nb_ prefix"
                           % (p, line, name))
    for b in bad:
        print(b)
    if bad:
        print("%d problem(s); see docs/architecture.md" % len(bad))
        return 1
    print("%d files: floors, sizes, function lengths and names hold"
          % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
