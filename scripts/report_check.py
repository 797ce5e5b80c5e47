"""Checks the comparison page as headless Chromium rendered it (scripts/report --check): the
screenshot shows the heat map (enough red, blue and purple cell pixels), and the DOM after the page's
script ran has a heat-map row for every back end of the run report; the conformance page's switches
(--filters); the explorer's page, ranking first (--explore); both pages' weight, height, order and
contrast (--sizes). The screenshot is decoded by Pillow (python3-pil); the rest is the standard library."""
import json
import sys


def pixels(path):
    """The screenshot's width, height, channels (3) and rows of RGB bytes, decoded by Pillow (any PNG
    Chromium writes: palette, 16-bit or interlaced ones included)."""
    from PIL import Image  # Debian's python3-pil (scripts/report --check installs it)
    with Image.open(path) as image:
        assert image.format == "PNG", f"{path} is not a PNG"
        rgb = image.convert("RGB")
        width, height = rgb.size
        data = rgb.tobytes()
    stride = width * 3
    return width, height, 3, [data[y * stride:(y + 1) * stride] for y in range(height)]


SCREEN = 900          # a screen's height at 1400 px wide
PAGE_BYTES = 1_000_000
PAGE_HEIGHT = 30_000


def measured(dom):
    """The laid-out height and each section's top, as document.js wrote them for #measure."""
    import re
    text = open(dom, encoding="utf-8").read()
    height = re.search(r'data-height="(\d+)"', text)
    sections = re.search(r'data-sections="([^"]*)"', text)
    if not height or not sections:
        sys.exit(f"report check: {dom} has no measurement (the page's script did not run with #measure)")
    tops = {}
    for part in sections.group(1).split(","):
        if ":" in part:
            name, top = part.rsplit(":", 1)
            tops[name] = int(top)
    return int(height.group(1)), tops, text


def contrast(a, b):
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    def lum(c):
        def ch(v):
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    x, y = lum(a), lum(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


def colour(text):
    """A CSS colour as the page writes one inline: rgb(r, g, b), #rgb or #rrggbb; None otherwise."""
    import re
    text = text.strip()
    match = re.fullmatch(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", text)
    if match: return tuple(int(v) for v in match.groups())
    match = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", text)
    if match:
        h = match.group(1)
        if len(h) == 3: h = "".join(c * 2 for c in h)
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    return None


def heat_cells(text):
    """Every heat-map cell with text in the page: (its text, background, ink), the colours from its
    inline style, None where it has none."""
    import html
    import re
    cells = []
    for table in re.findall(r'<table class="heat">(.*?)</table>', text, re.S):
        for attributes, content in re.findall(r"<td([^>]*)>(.*?)</td>", table, re.S):
            label = html.unescape(re.sub(r"<[^>]+>", "", content)).strip()
            if not label: continue
            style = re.search(r'style="([^"]*)"', attributes)
            rules = dict(part.split(":", 1) for part in (style.group(1).split(";") if style else []) if ":" in part)
            rules = {k.strip(): v for k, v in rules.items()}
            cells.append((label, colour(rules.get("background", "")), colour(rules.get("color", ""))))
    return cells


def sizes(compare, compare_dom, conformance, conformance_dom, root):
    """Pages that fit a screen: the conformance page under PAGE_BYTES and PAGE_HEIGHT at 1400 px;
    the comparison page's suites among its first two sections (after its answer) and starting within
    its first two screens, every heat-map cell's text at WCAG AA contrast (4.5:1) on its colour; no
    machine path in either."""
    import os
    problems = []
    weight = os.path.getsize(conformance)
    height, tops, _ = measured(conformance_dom)
    if weight >= PAGE_BYTES: problems.append(f"the conformance page weighs {weight:,} bytes (limit {PAGE_BYTES:,})")
    if height >= PAGE_HEIGHT: problems.append(f"the conformance page is {height:,} px tall at 1400 px (limit {PAGE_HEIGHT:,})")
    c_height, c_tops, _ = measured(compare_dom)
    order = sorted(c_tops, key=c_tops.get)
    # The answer first: the decision (report's "choosing" section) opens the page.
    if not order or order[0] != "choosing": problems.append(f"the comparison page does not open with its answer (sections: {order[:3]})")
    if "suites" not in c_tops:
        problems.append(f"the comparison page has no suites section (sections: {order[:4]})")
    else:
        if order.index("suites") > 1: problems.append(f"the comparison page's suites come after {order[:order.index('suites')]}, not right after its answer")
        if c_tops["suites"] > 2 * SCREEN:
            problems.append(f"the comparison page's suites start at {c_tops['suites']} px, past its first two screens ({2 * SCREEN} px at 1400 px wide)")
    cells = heat_cells(open(compare, encoding="utf-8").read())
    if not cells: problems.append("the comparison page's heat map has no cell with text")
    worst = None
    for label, background, ink in cells:
        if background is None or ink is None:
            problems.append(f"a heat-map cell ({label}) has no inline background and text colour to check")
            break
        ratio = contrast(background, ink)
        if worst is None or ratio < worst: worst = ratio
        if ratio < 4.5:
            problems.append(f"a heat-map cell's text ({label}) rgb{ink} on rgb{background} is at {ratio:.2f}:1, below 4.5:1")
            break
    for page in (compare, conformance):
        text = open(page, encoding="utf-8").read()
        for path in {root, "/tmp/", "/root/", "/home/", "/private/var/", "/Users/"}:
            if path in text:
                problems.append(f"{os.path.basename(page)} names a machine path ({path})")
    if problems:
        sys.exit("report check (sizes): " + "; ".join(problems))
    print(f"report check: conformance page {weight:,} bytes, {height:,} px at 1400 px (limits {PAGE_BYTES:,}, {PAGE_HEIGHT:,}); "
          f"comparison page {os.path.getsize(compare):,} bytes, {c_height:,} px, first {order[0]}, suites at {c_tops['suites']} px "
          f"(limit {2 * SCREEN}); {len(cells)} heat-map cells at AA contrast (lowest {worst:.2f}:1)", file=sys.stderr)


def filters(page, dom, preset):
    """The conformance page's switches, as the page's own script applied them in the browser: with
    #only=disagreements&hide=pass the rows shown are exactly the rows the page tags so."""
    import re
    text = open(page, encoding="utf-8").read()
    tags = re.findall(r'<tr data-tags="([^"]*)"', text)
    want = sum(1 for t in tags if "disagreements" in t.split() and "pass" not in t.split())
    rendered = open(dom, encoding="utf-8").read()
    shown = re.search(r'<span class="shown">(\d+) of (\d+) rows</span>', rendered)
    hidden = len(re.findall(r'<tr data-tags="[^"]*" hidden=""', rendered))
    problems = []
    if not tags: problems.append("the conformance page has no matrix rows")
    if want == 0: problems.append("no row disagrees: the check would prove nothing")
    if not shown or int(shown.group(1)) != want or int(shown.group(2)) != len(tags):
        problems.append(f"{preset} shows {shown.group(0) if shown else 'no count'}, expected {want} of {len(tags)} rows")
    if hidden != len(tags) - want: problems.append(f"{hidden} rows hidden, expected {len(tags) - want}")
    if problems:
        sys.exit("report check (conformance page): " + "; ".join(problems))
    print(f"report check: conformance page {preset} shows {want} of {len(tags)} rows in the browser", file=sys.stderr)


def explore(dom, report, listing):
    """The explorer's page as the browser rendered it, against the JSON report of the same run
    (made in another process: the explorer is deterministic): "Read first" is the first section,
    its callout counts each tier, the new and adopted classes and the folded pairs of the report,
    its table is the head of the report's ranking in order, and the classes listed one by one are
    the `listing` ranked highest, in the ranking's order, when the run has more."""
    import html
    import re
    text = open(dom, encoding="utf-8").read()
    data = json.load(open(report))
    ranking, findings, listing = data["ranking"], data["findings"], int(listing)
    problems = []

    def rows(table_id):
        match = re.search(r'<table[^>]*id="%s"[^>]*>.*?<tbody>(.*?)</tbody>' % table_id, text, re.S)
        if not match:
            problems.append(f"no table {table_id}")
            return []
        return [[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
                for row in re.findall(r"<tr[^>]*>(.*?)</tr>", match.group(1), re.S)]

    def name(finding):
        # As Step.description: a mutation of the whole chain names no role.
        return " + ".join(step["mutation"] if step["role"] == "chain" else f'{step["mutation"]} @{step["role"]}' for step in findings[finding]["steps"])

    sections = re.findall(r'<section id="([^"]+)"', text)
    if sections[:1] != ["ranking"]: problems.append(f"the first section is {sections[:1]}, not the ranking (Read first)")
    tiers = {t: sum(1 for r in ranking if r["tier"] == t) for t in (1, 2, 3, 4)}
    adopted = sum(1 for r in ranking if r["adopted"])
    callout = f'{tiers[1]} classes accepted where the standards reject, {tiers[2]} rejected where they trust, {tiers[3]} on the failure classes only, {tiers[4]} other; {len(ranking) - adopted} new, {adopted} already adopted as vectors. {data["foldedPairs"]} pairs folded'
    if callout not in html.unescape(text): problems.append(f"the ranking's callout does not say: {callout}")
    head = rows("ranking-table")
    if len(head) != min(30, len(ranking)): problems.append(f"the ranking table has {len(head)} rows, the report ranks {len(ranking)} (expected the first {min(30, len(ranking))})")
    for rank, (row, entry) in enumerate(zip(head, ranking), 1):
        impact = entry.get("impact")
        label = f'{impact["severity"]} · {impact["class"]} ({impact["cwe"]})' if impact else ""
        want = [str(rank), entry["why"], label, f'{entry["finding"] + 1}. {name(entry["finding"])}', ", ".join(entry["backends"])]
        if row[:5] != want:
            problems.append(f"ranking row {rank} shows {row[:5]}, the report {want}")
            break
    listed = rows("classes-table")
    expected = [r["finding"] for r in ranking[:listing]] if len(findings) > listing else list(range(len(findings)))
    numbers = [int(row[0].split(".")[0]) - 1 for row in listed if row]
    if numbers != expected: problems.append(f"the classes listed are {numbers[:10]}... ({len(numbers)}), expected {expected[:10]}... ({len(expected)})")
    if len(findings) > listing and f"The {listing} classes ranked highest of {len(findings)}" not in text:
        problems.append("the capped page does not say how many classes it lists")
    if not re.search(r"<td[^>]*>the explorer \(making and signing mutants\)</td>", text): problems.append("no cores' time table")
    if problems:
        sys.exit("report check (explore page): " + "; ".join(problems))
    print(f"report check: explore page opens with the ranking ({len(head)} of {len(ranking)} classes, tiers {tiers}); lists {len(numbers)} of {len(findings)} classes, ranked", file=sys.stderr)


if sys.argv[1] == "--filters":
    filters(*sys.argv[2:5])
    sys.exit(0)
if sys.argv[1] == "--sizes":
    sizes(*sys.argv[2:7])
    sys.exit(0)
if sys.argv[1] == "--explore":
    explore(*sys.argv[2:5])
    sys.exit(0)
png, dom, run = sys.argv[1:4]
width, height, channels, rows = pixels(png)
counts = {"red": 0, "blue": 0, "purple": 0}
for line in rows:
    for x in range(0, width * channels, channels):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if r > 150 and g < 140 and b < 140: counts["red"] += 1
        elif b > 150 and r < 140 and g < 170: counts["blue"] += 1
        elif r > 100 and b > 120 and g < 110: counts["purple"] += 1
text = open(dom, encoding="utf-8").read()
backends = [b["name"] for b in json.load(open(run))["backends"]]
missing = [b for b in backends if f'<th class="row">{b}</th>' not in text]
problems = []
if sum(counts.values()) < 2000: problems.append(f"the screenshot shows too few heat-map cells ({counts})")
if 'class="heat"' not in text: problems.append("no heat map in the rendered page")
if missing: problems.append(f"no heat-map row for {', '.join(missing)}")
if problems:
    sys.exit("report check: " + "; ".join(problems))
print(f"report check: {width}x{height} screenshot, cell pixels {counts}; a heat-map row for each of {len(backends)} back ends", file=sys.stderr)
