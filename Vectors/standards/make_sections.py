#!/usr/bin/env python3
"""Build sections.json: every numbered section heading of each standard here.

Run from anywhere:  python3 Vectors/standards/make_sections.py
It reads the texts that sit beside this script and rewrites sections.json
beside it.  Only numbered sections are listed ("4.2.1.10"), not lettered
appendices ("A.1") and not numbered list items inside the prose.

How headings are recognised:
  * RFC text files: a line outside the table of contents whose first
    characters are a section number, optionally followed by a dot, then
    spaces and a title, e.g. "4.2.1.10.  Name Constraints" or
    "2.3.5  ECDSA and ECDH Keys".  In most RFCs the heading starts in
    column 0 (numbered list items in the prose are indented, so they are
    not taken).  RFC 1123 indents its headings by three spaces per level
    ("   1.1  The Internet Architecture"); for that file the indentation
    has to match the depth of the number.
  * BR.md: Markdown headings such as "#### 7.1.2.7.10 Subscriber
    Certificate Extended Key Usage".
The table of contents is skipped by dropping lines with dot leaders
("....", ". . .") and everything before the first body heading "1".
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# file -> document name used in sections.json
RFCS = [
    ("RFC 5280", "rfc5280.txt"),
    ("RFC 9525", "rfc9525.txt"),
    ("RFC 8446", "rfc8446.txt"),
    ("RFC 5246", "rfc5246.txt"),
    ("RFC 5480", "rfc5480.txt"),
    ("RFC 4518", "rfc4518.txt"),
    ("RFC 4158", "rfc4158.txt"),
    ("RFC 3279", "rfc3279.txt"),
    ("RFC 1034", "rfc1034.txt"),
    ("RFC 1123", "rfc1123.txt"),
    ("RFC 8410", "rfc8410.txt"),
    ("RFC 5758", "rfc5758.txt"),
    ("RFC 7633", "rfc7633.txt"),
    ("RFC 6125", "rfc6125.txt"),
    ("RFC 4055", "rfc4055.txt"),
    ("RFC 7469", "rfc7469.txt"),
    ("RFC 5612", "rfc5612.txt"),
    ("RFC 4343", "rfc4343.txt"),
]
BR_NAME = "CA/B Forum Baseline Requirements"
BR_FILE = "BR.md"

# Files whose headings are indented three spaces per level below the top.
INDENTED_HEADINGS = {"rfc1123.txt"}

HEADING = re.compile(
    r"^(?P<ind> *)(?P<num>[0-9]{1,2}(?:\.[0-9]{1,3})*)\.?(?: +(?P<title>\S.*?))?\s*$"
)
DOT_LEADERS = re.compile(r"\.{4,}|(?:\. ){3,}")
PAGE_FOOTER = re.compile(r"\[Page [0-9]+\]\s*$")
PAGE_HEADER = re.compile(r"^RFC ?[0-9]+ ")


def key(num):
    return tuple(int(p) for p in num.split("."))


def plausible_next(prev, cur):
    """True when cur can follow prev in a numbered outline."""
    if prev is None:
        return cur == (1,)
    # child: prev + (1,)
    if cur == prev + (1,):
        return True
    # sibling or sibling of an ancestor: same prefix, last part grows
    for depth in range(len(prev), 0, -1):
        if len(cur) == depth and cur[:-1] == prev[: depth - 1] and cur[-1] > prev[depth - 1]:
            return True
    return False


def rfc_sections(path):
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().replace("\f", "\n").split("\n")
    found = []  # (num, title)
    started = False
    for line in lines:
        if DOT_LEADERS.search(line) or PAGE_FOOTER.search(line) or PAGE_HEADER.match(line):
            continue
        m = HEADING.match(line)
        if not m:
            continue
        num, ind, title = m.group("num"), len(m.group("ind")), (m.group("title") or "")
        depth = num.count(".") + 1
        if name in INDENTED_HEADINGS:
            if ind != 3 * (depth - 1):
                continue
        elif ind != 0:
            continue
        # a heading has a title (old RFCs: "1. STATUS OF THIS MEMO")
        if not title or not re.match(r"[A-Za-z0-9\"'(]", title):
            continue
        if not started:
            if key(num) != (1,):
                continue
            started = True
        found.append((num, title))
    # Keep document order, but drop anything that breaks the outline
    # (a stray numbered line in the prose) and report it.
    out, titles, prev = [], {}, None
    for num, title in found:
        k = key(num)
        if num in titles:
            continue
        if not plausible_next(prev, k):
            # accept gaps (some RFCs skip numbers), but never a step back
            if prev is not None and k <= prev:
                print(f"{name}: skipped out-of-order heading {num} {title!r}", file=sys.stderr)
                continue
            print(f"{name}: note: gap before {num} {title!r}", file=sys.stderr)
        out.append(num)
        titles[num] = title
        prev = k
    return out, titles


def rfc_title(path):
    """The first centred line(s) after the header block: the RFC's title."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"Request for Comments: *([0-9]+)", text)
    return int(m.group(1)) if m else None


def br_sections(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    version = None
    date = None
    fm = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if fm:
        mv = re.search(r"^subtitle:\s*Version\s+(\S+)", fm.group(1), re.M)
        md = re.search(r"^date:\s*(\S+)", fm.group(1), re.M)
        version = mv.group(1) if mv else None
        date = md.group(1) if md else None
    out, titles = [], {}
    in_code = False
    for line in text.split("\n"):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"^#{1,6}\s+([0-9]+(?:\.[0-9]+)*)\.?\s+(.*?)\s*$", line)
        if m and m.group(1) not in titles:
            out.append(m.group(1))
            titles[m.group(1)] = m.group(2)
    return out, titles, version, date


def main():
    docs = {}
    for name, fname in RFCS:
        path = os.path.join(HERE, fname)
        if not os.path.exists(path):
            print(f"{fname}: not present, left out", file=sys.stderr)
            continue
        number = rfc_title(path)
        if number != int(name.split()[1]):
            sys.exit(f"{fname}: header says RFC {number}, expected {name}")
        secs, titles = rfc_sections(path)
        docs[name] = {"file": fname, "sections": secs, "section_titles": titles}
    br = os.path.join(HERE, BR_FILE)
    if os.path.exists(br):
        secs, titles, version, date = br_sections(br)
        docs[BR_NAME] = {
            "file": BR_FILE,
            "version": version,
            "date": date,
            "sections": secs,
            "section_titles": titles,
        }
    with open(os.path.join(HERE, "sections.json"), "w", encoding="utf-8") as f:
        json.dump({"documents": docs}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for name, d in docs.items():
        print(f"{name}: {len(d['sections'])} sections")


if __name__ == "__main__":
    main()
