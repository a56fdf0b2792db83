# SPDX-License-Identifier: BSD-3-Clause
"""Every JSON document dpdk-nbench writes against
docs/nbench-result.schema.json (JSON Schema draft 2020-12, checked with
Debian's python3-jsonschema).

    json_schema_check.py FILE...          one document per file (--json)
    json_schema_check.py --lines FILE...  one document per line (--json-stream)
    json_schema_check.py --check-schema   the schema itself is valid

nbe2e.py validates every document an e2e test reads through check()."""
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "docs", "nbench-result.schema.json")
_validator = None


def validator():
    """The schema's validator; the schema is checked once on first use."""
    global _validator
    if _validator is None:
        with open(SCHEMA) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _validator = cls(schema)
    return _validator


def where(path):
    """A key's path as a reader writes it: $.end.streams[0].sender."""
    s = "$"
    for p in path:
        s += "[%d]" % p if isinstance(p, int) else "." + p
    return s


def problems(doc):
    """One line per place the document breaks the schema, deepest first
    (an error inside a kind's branch, not the 'if' that chose it)."""
    out = []

    def leaves(err):
        if err.context:
            for e in err.context:
                yield from leaves(e)
        else:
            yield err

    for err in validator().iter_errors(doc):
        for e in leaves(err):
            out.append("%s: %s" % (where(e.absolute_path), e.message))
    return sorted(set(out), key=lambda l: (-l.count("."), l))


def check(doc, what="document"):
    """Raise AssertionError naming the offending key's path when doc does
    not match the schema; return doc."""
    bad = problems(doc)
    if bad:
        raise AssertionError(
            "dpdk-nbench %s does not match docs/nbench-result.schema.json:"
            "\n  %s" % (what, "\n  ".join(bad[:20])))
    return doc


def main(argv):
    if argv[:1] == ["--check-schema"]:
        validator()
        print("%s: a valid JSON Schema" % os.path.normpath(SCHEMA))
        return 0
    lines = argv[:1] == ["--lines"]
    files = argv[1:] if lines else argv
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    status = 0
    for name in files:
        with open(name) as f:
            docs = ([json.loads(l) for l in f if l.strip()] if lines
                    else [json.load(f)])
        for i, d in enumerate(docs):
            bad = problems(d)
            label = "%s:%d" % (name, i + 1) if lines else name
            for b in bad:
                print("%s: %s" % (label, b))
            status |= bool(bad)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
