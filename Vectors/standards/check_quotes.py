#!/usr/bin/env python3
"""Check quotes.md against the texts beside it.

Every block quote ("> ...") in quotes.md sits under a "## Document (file)"
heading and a "### <section> ..." heading.  This script checks that
  * the section number exists in that document (per sections.json), and
  * the quoted text occurs verbatim in the file, after both sides are
    normalised the same way: RFC page-break lines (the "[Page N]" footer,
    the "RFC NNNN ..." running header and the form feed) are removed and
    every run of whitespace (line break plus indentation, the two spaces
    after a full stop) becomes one space, and
  * it occurs within that section: from its heading to the next heading
    of the same or a higher level (so its subsections are included), as
    make_sections.py finds the headings.
A quote heading marked "(secondary source, not verified)" is skipped.

Run: python3 Vectors/standards/check_quotes.py   (exit status 1 on failure)
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the texts
import make_sections  # noqa: E402  (section extents)


def normalise_doc(text):
    lines = text.replace("\f", "\n").split("\n")
    kept = [
        l
        for l in lines
        if not re.search(r"\[Page [0-9]+\]\s*$", l) and not re.match(r"^RFC ?[0-9]+ ", l)
    ]
    return re.sub(r"\s+", " ", "\n".join(kept))


def normalise_quote(text):
    return re.sub(r"\s+", " ", text).strip()


def main():
    sections = json.load(open(os.path.join(HERE, "sections.json"), encoding="utf-8"))["documents"]
    by_file = {d["file"]: d for d in sections.values()}
    cache = {}
    doc_file = section = None
    skip = False
    quotes = []  # (file, section, text, lineno)
    buf, start = [], 0
    lines = open(os.path.join(HERE, "quotes.md"), encoding="utf-8").read().split("\n")

    def flush():
        nonlocal buf
        if buf and not skip:
            quotes.append((doc_file, section, "\n".join(buf), start))
        buf = []

    for n, line in enumerate(lines, 1):
        if line.startswith(">"):
            if not buf:
                start = n
            buf.append(line[1:].lstrip(" ") if line.startswith("> ") or line == ">" else line[1:])
            continue
        flush()
        m = re.match(r"^## .*\(([^()]+\.(?:txt|md))\)\s*$", line)
        if m:
            doc_file, section = m.group(1), None
            continue
        m = re.match(r"^### ([0-9]+(?:\.[0-9]+)*)\b", line)
        if m:
            section = m.group(1)
            skip = "secondary source, not verified" in line
            continue
    flush()

    failures = 0
    extents = {}
    for fname, sec, text, n in quotes:
        if fname not in cache:
            path = os.path.join(HERE, fname)
            cache[fname] = normalise_doc(open(path, encoding="utf-8").read()) if os.path.exists(path) else None
        doc = cache[fname]
        problems = []
        if doc is None:
            problems.append(f"{fname} is not here")
        else:
            if sec not in by_file.get(fname, {}).get("sections", []):
                problems.append(f"section {sec} not among the headings of {fname}")
            needle = normalise_quote(text)
            if needle not in doc:
                problems.append("text not found verbatim")
            elif sec in by_file.get(fname, {}).get("sections", []):
                if fname not in extents:
                    scoped, spans, _ = make_sections.load(fname)
                    extents[fname] = (scoped, spans)
                scoped, spans = extents[fname]
                start, end = spans[sec]
                found, at = [], scoped.find(needle)
                while at >= 0:
                    found.append(at)
                    at = scoped.find(needle, at + 1)
                if not any(start <= p and p + len(needle) <= end for p in found):
                    elsewhere = sorted(
                        {s for s, (a, b) in spans.items() for p in found if a <= p and p + len(needle) <= b},
                        key=make_sections.key,
                    )
                    problems.append(f"not within section {sec} (it is within {', '.join(elsewhere) or 'no numbered section'})")
        if problems:
            failures += 1
            print(f"quotes.md:{n}: {fname} {sec}: " + "; ".join(problems))
    print(f"{len(quotes) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
