#!/usr/bin/env python3
"""Build sections.json: every numbered section heading of each standard here.

Run from anywhere:  python3 Vectors/standards/make_sections.py
It reads the texts that sit beside this script and rewrites sections.json
beside it.  Only numbered sections are listed ("4.2.1.10"), not lettered
appendices ("A.1") and not numbered list items inside the prose.

The same parsing is used as a library by scripts/standards-check, which
needs each section's extent: `load(name)` gives a document's normalised
text and, for each numbered section, where it starts and ends in that
text (from its heading to the next heading of the same or a higher level,
so a section includes its subsections).

How headings are recognised:
  * RFC text files (rfcNNNN.txt): a line outside the table of contents
    whose first characters are a section number, optionally followed by a
    dot, then spaces and a title, e.g. "4.2.1.10.  Name Constraints" or
    "2.3.5  ECDSA and ECDH Keys".  In most RFCs the heading starts in
    column 0 (numbered list items in the prose are indented, so they are
    not taken).  RFC 1123 indents its headings by three spaces per level
    ("   1.1  The Internet Architecture"); for that file the indentation
    has to match the depth of the number.  Unnumbered headings in column 0
    ("Appendix A.  ...", "A.1.  ...", "Authors' Addresses", "Full Copyright
    Statement", ...) end the numbered section before them.
  * rfc9110.md: the RFC Editor's HTML rendering of RFC 9110 converted to
    Pandoc Markdown; headings such as
    "#### [4.3.4.](#section-4.3.4){.section-number .selfRef} [https ...]".
  * rfc9525-auth48.xml: the xml2rfc v3 source of RFC 9525 during AUTH48;
    sections are the nested <section> elements of <middle>, numbered in
    document order.  Only the outline is used (see README.md).
  * x690-clauses.txt: an excerpt of X.690; a clause starts at a line
    beginning with its number in column 0 below the "-----" line.
  * BR.md: Markdown headings such as "#### 7.1.2.7.10 Subscriber
    Certificate Extended Key Usage".
The table of contents is skipped by dropping lines with dot leaders
("....", ". . .") and everything before the first body heading "1".

How text is normalised (for quotes): RFC page breaks (the "[Page N]"
footer, the "RFC NNNN ..." running header, the form feed) are removed and
every run of white space becomes one space.  In rfc9110.md the Markdown is
undone first (links become their text, pilcrow anchors, attribute blocks,
"::: " fences and backslash escapes are removed, the RFC Editor's
non-breaking spaces become spaces).
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))

# document name used in sections.json -> file
RFCS = [
    ("RFC 5280", "rfc5280.txt"),
    ("RFC 9525", "rfc9525-auth48.xml"),
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
    ("RFC 6960", "rfc6960.txt"),
    ("RFC 6125", "rfc6125.txt"),
    ("RFC 4055", "rfc4055.txt"),
    ("RFC 7469", "rfc7469.txt"),
    ("RFC 5612", "rfc5612.txt"),
    ("RFC 4343", "rfc4343.txt"),
    ("RFC 9110", "rfc9110.md"),
]
BR_NAME = "CA/B Forum Baseline Requirements"
BR_FILE = "BR.md"
X690_NAME = "X.690"
X690_FILE = "x690-clauses.txt"

# What each kind of stored file lets standards-check do.  "text": quotes are
# checked against it.  "outline": only section numbers (the file is not the
# published text).  "excerpt": only the clauses it holds are there.
NOTES = {
    "RFC 9525": {
        "holds": "outline",
        "note": "AUTH48 XML (pre-publication) from the authors' repository: section numbers are "
        "checked against its outline; its wording is not the published RFC's, so quotes are not checked",
    },
    "RFC 9110": {
        "holds": "text",
        "note": "the RFC Editor's HTML rendering of the published RFC, as Pandoc Markdown",
    },
    "RFC 5480": {
        "holds": "text",
        "note": "RFC Editor plain text, reconstructed from a Markdown wrapping of it (see README.md)",
    },
    "RFC 6960": {
        "holds": "text",
        "note": "RFC Editor plain text, reconstructed from a Markdown wrapping of it by RFC 5480's rule (see README.md)",
    },
    "RFC 7633": {
        "holds": "text",
        "note": "RFC Editor plain text, reconstructed from a Markdown wrapping of it by RFC 5480's rule (see README.md)",
    },
    X690_NAME: {
        "holds": "excerpt",
        "note": "clauses 10 and 11.2 only, as a third party transcribed them (not the ITU-T text)",
    },
}

# Files whose headings are indented three spaces per level below the top.
INDENTED_HEADINGS = {"rfc1123.txt"}

HEADING = re.compile(
    r"^(?P<ind> *)(?P<num>[0-9]{1,2}(?:\.[0-9]{1,3})*)\.?(?: +(?P<title>\S.*?))?\s*$"
)
DOT_LEADERS = re.compile(r"\.{4,}|(?:\. ){3,}")
PAGE_FOOTER = re.compile(r"\[Page [0-9]+\]\s*$")
PAGE_HEADER = re.compile(r"^RFC ?[0-9]+ ")
# Unnumbered headings in column 0 of an RFC text: they end the numbered
# section before them (appendices, addresses, boilerplate at the end).
UNNUMBERED_RFC_HEADING = re.compile(
    r"^(?:Appendix [A-Z]\.?(?:\s|$)|[A-Z]\.[0-9]+(?:\.[0-9]+)*\.?\s+\S|"
    r"Authors?'? Address(?:es)?\s*$|Author's Address\s*$|Full Copyright Statement\s*$|"
    r"Intellectual Property(?: Statement)?\s*$|Acknowledge?ments?\s*$|Contributors\s*$|Index\s*$)"
)
MD_NUMBERED = re.compile(r"^(?P<hashes>#{2,6}) \[(?P<num>[0-9]+(?:\.[0-9]+)*)\.\]\(#section-[0-9.]+\)\{[^}]*\} ?(?P<title>.*)$")
MD_HEADING = re.compile(r"^(?P<hashes>#{1,6}) ")


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


def read(fname):
    with open(os.path.join(HERE, fname), encoding="utf-8") as f:
        return f.read()


def is_page_line(line):
    return bool(PAGE_FOOTER.search(line) or PAGE_HEADER.match(line))


# ---------------------------------------------------------------- headings
# Each parser returns (lines, headings): the file's lines as the text is
# made of them, and [(line index, number or None, depth, title)] in order.
# A heading without a number only ends the sections before it.


def rfc_text_headings(fname):
    lines = read(fname).replace("\f", "\n").split("\n")
    found = []  # (index, num, title) candidates
    boundaries = []
    started = False
    for i, line in enumerate(lines):
        if DOT_LEADERS.search(line) or is_page_line(line):
            continue
        m = HEADING.match(line)
        if m:
            num, ind, title = m.group("num"), len(m.group("ind")), (m.group("title") or "")
            depth = num.count(".") + 1
            if fname in INDENTED_HEADINGS:
                ok = ind == 3 * (depth - 1)
            else:
                ok = ind == 0
            # a heading has a title (old RFCs: "1. STATUS OF THIS MEMO")
            if ok and title and re.match(r"[A-Za-z0-9\"'(]", title):
                if not started and key(num) == (1,):
                    started = True
                if started:
                    found.append((i, num, title))
                    continue
        if started and UNNUMBERED_RFC_HEADING.match(line):
            boundaries.append((i, None, 1, line.strip()))
    # Keep document order, but drop anything that breaks the outline
    # (a stray numbered line in the prose) and report it.
    out, seen, prev = [], set(), None
    for i, num, title in found:
        k = key(num)
        if num in seen:
            continue
        if not plausible_next(prev, k):
            # accept gaps (some RFCs skip numbers), but never a step back
            if prev is not None and k <= prev:
                print(f"{fname}: skipped out-of-order heading {num} {title!r}", file=sys.stderr)
                continue
            print(f"{fname}: note: gap before {num} {title!r}", file=sys.stderr)
        out.append((i, num, len(k), title))
        seen.add(num)
        prev = k
    return lines, sorted(out + boundaries)


def md_inline_text(text):
    """Pandoc Markdown of the RFC Editor's HTML, back to the words."""
    text = text.replace("\u00a0", " ")
    text = re.sub(r"\[¶\]\([^)]*\)\{\.pilcrow\}", "", text)
    text = re.sub(r"\{[#.][^{}]*\}", "", text)  # attribute blocks
    for _ in range(3):  # links may nest: [[text](#a)](#b)
        text = re.sub(r"\[([^\[\]]*)\]\([^()]*\)", r"\1", text)
        text = re.sub(r"\[([^\[\]]*)\](?=[\s.,;:)]|$)", r"\1", text)  # [span]{.x} after the block went
    text = re.sub(r"<((?:https?|mailto):[^>\s]*)>", r"\1", text)
    text = re.sub(r"\\(.)", r"\1", text)
    return text


def rfc_markdown_headings(fname):
    raw = read(fname).split("\n")
    lines, out = [], []
    started = False
    prev = None
    for i, line in enumerate(raw):
        m = MD_NUMBERED.match(line)
        if m:
            num = m.group("num")
            if not started and key(num) == (1,):
                started = True
            if started:
                k = key(num)
                if prev is not None and k <= prev:
                    print(f"{fname}: skipped out-of-order heading {num}", file=sys.stderr)
                else:
                    title = md_inline_text(m.group("title")).strip()
                    out.append((i, num, len(k), title))
                    prev = k
        elif started and MD_HEADING.match(line):
            # an unnumbered heading ("## [Appendix A.]...", "## [Authors' Addresses]...")
            depth = max(1, len(MD_HEADING.match(line).group("hashes")) - 1)
            out.append((i, None, depth, md_inline_text(line.lstrip("#")).strip()))
        if line.startswith(":::"):
            lines.append("")
        else:
            lines.append(md_inline_text(line))
    return lines, out


def xml_outline(fname):
    root = ET.fromstring(read(fname))
    out = []

    def walk(el, prefix):
        n = 0
        for s in el.findall("section"):
            if s.get("numbered") == "false":
                continue
            n += 1
            num = f"{prefix}{n}"
            name = s.find("name")
            title = re.sub(r"\s+", " ", "".join(name.itertext())).strip() if name is not None else ""
            out.append((None, num, num.count(".") + 1, title))
            walk(s, num + ".")

    walk(root.find("middle"), "")
    return None, out


def excerpt_headings(fname):
    lines = read(fname).split("\n")
    out = []
    body = False
    for i, line in enumerate(lines):
        if not body:
            if line.startswith("-----"):
                body = True
            lines[i] = ""  # the header is not the standard's text
            continue
        m = re.match(r"^([0-9]+(?:\.[0-9]+)*)\s+(.*)$", line)
        # a clause number never steps back ("1 and an initial octet" is prose)
        if m and (not out or key(m.group(1)) > key(out[-1][1])):
            out.append((i, m.group(1), m.group(1).count(".") + 1, m.group(2)))
    return lines, out


def br_headings(fname):
    lines = read(fname).split("\n")
    out, seen = [], set()
    in_code = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"^(#{1,6})\s+([0-9]+(?:\.[0-9]+)*)\.?\s+(.*?)\s*$", line)
        if m and m.group(2) not in seen:
            out.append((i, m.group(2), m.group(2).count(".") + 1, m.group(3)))
            seen.add(m.group(2))
        elif re.match(r"^#{1,6}\s", line):
            out.append((i, None, len(line) - len(line.lstrip("#")), line.lstrip("#").strip()))
    return lines, out


def br_version(fname):
    fm = re.match(r"^---\n(.*?)\n---\n", read(fname), re.S)
    if not fm:
        return None, None
    mv = re.search(r"^subtitle:\s*Version\s+(\S+)", fm.group(1), re.M)
    md = re.search(r"^date:\s*(\S+)", fm.group(1), re.M)
    return (mv.group(1) if mv else None), (md.group(1) if md else None)


def headings(fname):
    if fname == BR_FILE:
        return br_headings(fname)
    if fname == X690_FILE:
        return excerpt_headings(fname)
    if fname.endswith(".md"):
        return rfc_markdown_headings(fname)
    if fname.endswith(".xml"):
        return xml_outline(fname)
    return rfc_text_headings(fname)


# ---------------------------------------------------------------- text


def load(fname):
    """(normalised text, {section: (start, end)}, [(start, section or None, depth)]).

    The text is the file's with page breaks removed and white space collapsed;
    a section runs from its heading to the next heading of the same or a higher
    level (fewer number parts), or to an unnumbered heading of that level, or to
    the end.  None for the text when only an outline is stored."""
    lines, heads = headings(fname)
    if lines is None:
        spans = {num: (None, None) for _, num, _, _ in heads if num}
        return None, spans, [(None, num, depth) for _, num, depth, _ in heads]
    pieces, offsets, pos = [], {}, 0
    heading_lines = {i for i, _, _, _ in heads}
    for i, raw in enumerate(lines):
        if i in heading_lines:
            offsets[i] = pos
        line = raw.replace("\f", "")
        if is_page_line(line):
            continue
        line = re.sub(r"\s+", " ", line).strip()
        if not line:
            continue
        pieces.append(line)
        pos += len(line) + 1
    text = " ".join(pieces)
    starts = [(offsets[i], num, depth) for i, num, depth, _ in heads]
    spans = {}
    for n, (start, num, depth) in enumerate(starts):
        if num is None:
            continue
        end = len(text)
        for later, _, later_depth in starts[n + 1:]:
            if later_depth <= depth:
                end = later
                break
        spans[num] = (start, end)
    return text, spans, starts


def section_list(fname):
    _, heads = headings(fname)
    return [num for _, num, _, _ in heads if num], {num: title for _, num, _, title in heads if num}


def rfc_number(fname):
    text = read(fname)
    m = re.search(r"Request for Comments: *([0-9]+)", text) or re.search(
        r'<rfc [^>]*number="([0-9]+)"', text
    ) or re.search(r"^RFC:\n:   \[([0-9]+)\]", text, re.M)
    return int(m.group(1)) if m else None


def documents():
    """name -> file, for the files present."""
    docs = {}
    for name, fname in RFCS:
        if os.path.exists(os.path.join(HERE, fname)):
            docs[name] = fname
    if os.path.exists(os.path.join(HERE, BR_FILE)):
        docs[BR_NAME] = BR_FILE
    if os.path.exists(os.path.join(HERE, X690_FILE)):
        docs[X690_NAME] = X690_FILE
    return docs


def main():
    docs = {}
    for name, fname in RFCS:
        path = os.path.join(HERE, fname)
        if not os.path.exists(path):
            print(f"{fname}: not present, left out", file=sys.stderr)
            continue
        number = rfc_number(fname)
        if number != int(name.split()[1]):
            sys.exit(f"{fname}: header says RFC {number}, expected {name}")
        secs, titles = section_list(fname)
        docs[name] = {"file": fname, "sections": secs, "section_titles": titles}
        docs[name].update(NOTES.get(name, {}))
    if os.path.exists(os.path.join(HERE, BR_FILE)):
        secs, titles = section_list(BR_FILE)
        version, date = br_version(BR_FILE)
        docs[BR_NAME] = {
            "file": BR_FILE,
            "version": version,
            "date": date,
            "sections": secs,
            "section_titles": titles,
        }
    if os.path.exists(os.path.join(HERE, X690_FILE)):
        secs, titles = section_list(X690_FILE)
        docs[X690_NAME] = {"file": X690_FILE, "sections": secs, "section_titles": titles}
        docs[X690_NAME].update(NOTES[X690_NAME])
    with open(os.path.join(HERE, "sections.json"), "w", encoding="utf-8") as f:
        json.dump({"documents": docs}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for name, d in docs.items():
        print(f"{name}: {len(d['sections'])} sections")


if __name__ == "__main__":
    main()
