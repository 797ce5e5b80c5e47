#!/usr/bin/env python3
"""Check the vectors' Web PKI answers against pyca/cryptography's Web PKI verifier.

Run it through scripts/pyca-check, which provides a venv with cryptography>=44.

For every vector of <vectors>/manifest.json and <vectors>/explored/manifest.json this builds a
`cryptography.x509.verification.PolicyBuilder` with the vector's own `time` (as a naive UTC
datetime) and its `anchors` as the `Store`, makes a server verifier for the vector's host and calls
`verify(leaf, intermediates)`, with chain[0] as the leaf and every other chain file (duplicates,
the root, unrelated certificates included) as an intermediate. pyca's verdict (trusted, or rejected
with its exception text) is compared with the vector's Web PKI answer: `entry["webpki"]` when
present, otherwise the top-level `expected`/`open`. Only the trusted/rejected bit is compared.

Rules this check adds, since pyca needs them spelled out:

* Depth. pyca's default max_chain_depth is 8 (a resource limit of the verifier; the Baseline
  Requirements set none): the check sets it to MAX_CHAIN_DEPTH (64), a setting any pyca client has.

* Subject. A vector's `host` is an IPv4/IPv6 address (x509.IPAddress) or otherwise a DNS name
  (x509.DNSName). A vector with `host` null has none, but pyca's server verifier needs one: the
  check uses the leaf's first dNSName or iPAddress subjectAltName entry, in SAN order (a leading
  wildcard label `*.` is replaced by `wildcard.`, a name it covers, since pyca refuses a pattern as
  the reference name). A leaf with neither counts as "rejected (no subject to verify)": the Web PKI
  requires a SAN (BR 7.1.2.7.12), and pyca would reject the leaf for lacking one anyway.
* A host pyca refuses as a reference name (for example a DNS name with `_` or a U-label) counts as
  rejected, with pyca's message.
* A certificate pyca cannot parse (load_pem/der_x509_certificate raises) makes pyca reject the
  vector, whatever its position. Files may be PEM (every certificate block is loaded) or DER.
* A vector with no anchors counts as rejected (pyca cannot build an empty Store).
* A vector with revocation data (the manifest's `revocation`) is unsupported, not compared: pyca's
  verifier takes no CRLs, OCSP responses or revocation mode.
* Open vectors: a chosen answer with `open` set has no pass/fail answer and is reported as open,
  never as a disagreement. So is a vector marked `"noStandardAnswer": true` (the older marker for
  the same thing: its `expected` is the back ends' majority verdict, not a standard's answer) when
  it has no `webpki` entry; --include-no-standard-answer compares those as well.

Vectors pyca cannot judge: pyca refuses some certificates for a feature it does not implement,
not for a rule it checks. Such a refusal (UNSUPPORTED below: the message and the documented limit
behind it) is reported as `unsupported`, not compared: pyca has no answer there. The agreement is
agree / (agree + disagree) over the vectors pyca can judge (neither open nor unsupported), and the
check fails when it is below --min-agreement (default 93: since the key-identifier rule of issue 58 the profile departs from pyca by design on nine vectors, 93.62% with them).

Explanations are read from <vectors>/pyca-disagreements.json when present:
  {"version": 1, "explained": [{"vector": "<id or fnmatch glob>", "pyca": "trusted"|"rejected",
                                "reason": "..."}]}
A disagreement is explained when an entry's glob matches its id (fnmatchcase) and the entry's
`pyca` equals pyca's verdict. An entry that explains no current disagreement is stale; with --only,
an entry whose glob matches none of the selected vectors is not judged.

Exit status: 0 when there is no unexplained disagreement and no stale explanation, 1 otherwise,
2 on bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import ipaddress
import json
import os
import sys
import warnings
from dataclasses import dataclass, field

try:
    import cryptography
    from cryptography import x509
    from cryptography.x509 import verification
except ImportError as error:  # pragma: no cover - the wrapper installs it
    print(f"pyca-check: cannot import cryptography.x509.verification ({error}); run scripts/pyca-check", file=sys.stderr)
    sys.exit(2)

MANIFESTS = ("manifest.json", os.path.join("explored", "manifest.json"))
EXPLANATIONS = "pyca-disagreements.json"


class InputError(Exception):
    """Unreadable or malformed input: exit status 2."""


# ---------------------------------------------------------------------------------------------
# Loading


@dataclass
class Loaded:
    """The certificates of one file, or why pyca cannot parse it."""

    certs: list
    error: str | None = None


class CertificateCache:
    """Loads each file once, whatever the number of vectors that name it."""

    def __init__(self, root: str):
        self.root = root
        self.files: dict[str, Loaded] = {}
        self.names: dict[int, str] = {}  # id(certificate) -> file it came from (for paths)

    def load(self, relative: str) -> Loaded:
        path = os.path.normpath(os.path.join(self.root, relative))
        cached = self.files.get(path)
        if cached is not None:
            return cached
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror or error}") from error
        loaded = self._parse(data)
        for cert in loaded.certs:
            self.names[id(cert)] = relative
        self.files[path] = loaded
        return loaded

    @staticmethod
    def _parse(data: bytes) -> Loaded:
        try:
            with warnings.catch_warnings():
                # cryptography warns (and still loads) on a serial that is not positive.
                warnings.simplefilter("ignore")
                if b"-----BEGIN" in data:
                    certs = x509.load_pem_x509_certificates(data)
                else:
                    certs = [x509.load_der_x509_certificate(data)]
        except Exception as error:  # noqa: BLE001 - any load failure is pyca's rejection
            return Loaded([], f"{type(error).__name__}: {error}")
        if not certs:
            return Loaded([], "no certificate in the file")
        return Loaded(certs)


def read_json(path: str):
    try:
        with open(path, "rb") as handle:
            return json.load(handle)
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from error
    except ValueError as error:
        raise InputError(f"{path} is not JSON: {error}") from error


@dataclass
class Vector:
    id: str
    manifest: str
    chain: list[str]
    anchors: list[str]
    host: str | None
    time: dt.datetime
    expected: bool
    open: str | None
    revocation: bool = False


def parse_time(text, where: str) -> dt.datetime:
    if not isinstance(text, str):
        raise InputError(f"{where}: `time` is not a string")
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as error:
        raise InputError(f"{where}: bad time {text!r}: {error}") from error
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value


def load_vectors(root: str, include_no_standard_answer: bool) -> list[Vector]:
    vectors: list[Vector] = []
    for index, name in enumerate(MANIFESTS):
        path = os.path.join(root, name)
        if index > 0 and not os.path.exists(path):
            continue
        document = read_json(path)
        entries = document.get("vectors") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            raise InputError(f"{path}: no `vectors` list")
        for position, entry in enumerate(entries):
            where = f"{path} vectors[{position}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
                raise InputError(f"{where}: not an object with a string `id`")
            where = f"{path} {entry['id']}"
            chain, anchors, host = entry.get("chain"), entry.get("anchors", []), entry.get("host")
            if not isinstance(chain, list) or not chain or not all(isinstance(p, str) for p in chain):
                raise InputError(f"{where}: `chain` is not a non-empty list of paths")
            if not isinstance(anchors, list) or not all(isinstance(p, str) for p in anchors):
                raise InputError(f"{where}: `anchors` is not a list of paths")
            if host is not None and not isinstance(host, str):
                raise InputError(f"{where}: `host` is neither a string nor null")
            webpki = entry.get("webpki")
            if webpki is not None and not isinstance(webpki, dict):
                raise InputError(f"{where}: `webpki` is not an object")
            answer = webpki if webpki is not None else entry
            expected = answer.get("expected")
            if not isinstance(expected, dict) or not isinstance(expected.get("trusted"), bool):
                raise InputError(f"{where}: the {'webpki ' if webpki is not None else ''}answer has no `expected.trusted`")
            open_sentence = answer.get("open")
            if open_sentence is not None and not isinstance(open_sentence, str):
                raise InputError(f"{where}: `open` is not a string")
            if open_sentence is None and webpki is None and entry.get("noStandardAnswer") is True and not include_no_standard_answer:
                open_sentence = "noStandardAnswer: no standard answer (expected is the back ends' majority verdict)"
            vectors.append(Vector(
                id=entry["id"], manifest=name, chain=chain, anchors=anchors, host=host,
                time=parse_time(entry.get("time"), where), expected=expected["trusted"], open=open_sentence,
                revocation=entry.get("revocation") is not None,
            ))
    return vectors


@dataclass
class Explanation:
    vector: str
    pyca: str
    reason: str
    used: int = 0
    judged: bool = False


def load_explanations(path: str) -> list[Explanation]:
    if not os.path.exists(path):
        return []
    document = read_json(path)
    if not isinstance(document, dict) or document.get("version") != 1:
        raise InputError(f"{path}: expected an object with \"version\": 1")
    entries = document.get("explained", [])
    if not isinstance(entries, list):
        raise InputError(f"{path}: `explained` is not a list")
    explanations = []
    for position, entry in enumerate(entries):
        where = f"{path} explained[{position}]"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: not an object")
        vector, verdict, reason = entry.get("vector"), entry.get("pyca"), entry.get("reason")
        if not isinstance(vector, str) or not vector:
            raise InputError(f"{where}: `vector` is not a non-empty string")
        if verdict not in ("trusted", "rejected"):
            raise InputError(f"{where}: `pyca` is neither \"trusted\" nor \"rejected\"")
        if not isinstance(reason, str) or not reason.strip():
            raise InputError(f"{where}: `reason` is not a non-empty string")
        explanations.append(Explanation(vector, verdict, reason))
    return explanations


# ---------------------------------------------------------------------------------------------
# Verifying


@dataclass
class Verdict:
    trusted: bool
    kind: str  # trusted | verification | unparseable | no-subject | subject-refused | no-anchors | error
    message: str | None = None
    subject: str | None = None
    subject_source: str | None = None  # host | leaf-san
    path: list[str] | None = None

    @property
    def word(self) -> str:
        return "trusted" if self.trusted else "rejected"


def reference_from_host(host: str):
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def reference_from_leaf(leaf) -> tuple[object | None, str | None]:
    """The leaf's first dNSName or iPAddress SAN entry, or (None, why)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            san = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return None, "the leaf has no subjectAltName"
    except Exception as error:  # noqa: BLE001
        return None, f"the leaf's extensions do not parse ({type(error).__name__}: {error})"
    for name in san:
        if isinstance(name, x509.IPAddress):
            return name, None
        if isinstance(name, x509.DNSName):
            value = name.value
            if value.startswith("*."):
                value = "wildcard." + value[2:]
            return x509.DNSName(value), None
    return None, "the leaf's subjectAltName has no dNSName or iPAddress"


def describe(reference) -> str:
    return str(reference.value)


def verify(vector: Vector, cache: CertificateCache) -> Verdict:
    if vector.revocation:
        # The answer rests on the vector's CRLs, OCSP responses and mode, which pyca cannot be given.
        return Verdict(False, "verification", REVOCATION_UNSUPPORTED)
    chain_files = [(p, cache.load(p)) for p in vector.chain]
    anchor_files = [(p, cache.load(p)) for p in vector.anchors]
    for role, files in (("chain", chain_files), ("anchor", anchor_files)):
        for relative, loaded in files:
            if loaded.error is not None:
                return Verdict(False, "unparseable", f"pyca cannot parse {role} certificate {relative}: {loaded.error}")

    leaf = chain_files[0][1].certs[0]
    intermediates = chain_files[0][1].certs[1:] + [c for _, loaded in chain_files[1:] for c in loaded.certs]
    anchors = [c for _, loaded in anchor_files for c in loaded.certs]

    if vector.host is not None:
        source = "host"
        try:
            reference = reference_from_host(vector.host)
        except Exception as error:  # noqa: BLE001
            return Verdict(False, "subject-refused", f"pyca refuses the host {vector.host!r}: {type(error).__name__}: {error}",
                           subject=vector.host, subject_source=source)
    else:
        source = "leaf-san"
        try:
            reference, why = reference_from_leaf(leaf)
        except Exception as error:  # noqa: BLE001 - e.g. a SAN entry pyca will not take as a name
            return Verdict(False, "subject-refused", f"pyca refuses the leaf's first SAN entry as a subject: {type(error).__name__}: {error}",
                           subject_source=source)
        if reference is None:
            return Verdict(False, "no-subject", f"no subject to verify: {why}", subject_source=source)
    subject = describe(reference)

    if not anchors:
        return Verdict(False, "no-anchors", "no trust anchors (pyca cannot build an empty Store)", subject, source)

    try:
        builder = verification.PolicyBuilder().store(verification.Store(anchors)).time(vector.time).max_chain_depth(MAX_CHAIN_DEPTH)
        verifier = builder.build_server_verifier(reference)
    except Exception as error:  # noqa: BLE001
        return Verdict(False, "subject-refused", f"pyca refuses the subject {subject!r}: {type(error).__name__}: {error}",
                       subject, source)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            built = verifier.verify(leaf, intermediates)
    except verification.VerificationError as error:
        return Verdict(False, "verification", str(error), subject, source)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001 - includes pyo3's PanicException
        return Verdict(False, "error", f"{type(error).__name__}: {error}", subject, source)
    return Verdict(True, "trusted", None, subject, source, [cache.names.get(id(c), "?") for c in built])


# ---------------------------------------------------------------------------------------------
# Judging and reporting


@dataclass
class Result:
    vector: Vector
    verdict: Verdict
    status: str  # agree | explained | unexplained | open | unsupported
    explanation: Explanation | None = None


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)
    stale: list[Explanation] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)


MAX_CHAIN_DEPTH = 64

# pyca's refusals for features it does not implement: (a substring of its message, the limit).
REVOCATION_UNSUPPORTED = "pyca takes no revocation data: the vector's answer rests on its CRLs, OCSP responses and mode"

UNSUPPORTED = [
    (REVOCATION_UNSUPPORTED, "pyca/cryptography 50.0.2's verifier checks no revocation: cryptography.x509.verification's PolicyBuilder and ServerVerifier take a store, a time and limits, and no CRL, OCSP response or mode, so the revocation-* vectors are not compared"),
    ("2.5.29.32: certificate contains unaccounted-for critical", "pyca/cryptography 50.0.2 implements no certificate policy processing (RFC 5280 §6.1.3(d)-(f)): its extension policies have validators for eight extensions, certificatePolicies not among them, and refuse any other critical one (src/rust/cryptography-x509-verification/src/policy/extension.rs:19-36, 297-311)"),
    ("2.5.29.33: certificate contains unaccounted-for critical", "pyca/cryptography 50.0.2 implements no policy mapping (RFC 5280 §6.1.4(a)-(b)) and refuses a critical policyMappings as unaccounted for (policy/extension.rs:297-311)"),
    ("2.5.29.36: certificate contains unaccounted-for critical", "pyca/cryptography 50.0.2 implements no policyConstraints (RFC 5280 §6.1.4(i)) and refuses a critical one as unaccounted for (policy/extension.rs:297-311)"),
    ("2.5.29.54: certificate contains unaccounted-for critical", "pyca/cryptography 50.0.2 implements no inhibitAnyPolicy (RFC 5280 §6.1.4(j)) and refuses a critical one as unaccounted for (policy/extension.rs:297-311)"),
    ("contains an unsupported directoryName", "pyca/cryptography 50.0.2 implements no directoryName name constraints: a critical nameConstraints with one is a fatal error whatever the certificates hold (src/rust/cryptography-x509-verification/src/lib.rs:432-459)"),
    ("unsupported name constraint", "pyca/cryptography 50.0.2 matches dNSName, iPAddress and rfc822Name constraints only; a name of another form under a constraint of its form is an error (lib.rs:229-243)"),
]


def unsupported(verdict: Verdict) -> str | None:
    if verdict.trusted or not verdict.message:
        return None
    for text, limit in UNSUPPORTED:
        if text in verdict.message:
            return limit
    return None


def judge(vectors: list[Vector], verdicts: list[Verdict], explanations: list[Explanation], filtered: bool) -> Report:
    report = Report()
    for vector, verdict in zip(vectors, verdicts):
        if vector.open is not None:
            report.results.append(Result(vector, verdict, "open"))
        elif vector.revocation or (unsupported(verdict) is not None and vector.expected != verdict.trusted):
            # Revocation vectors are never compared, whichever way pyca's verdict falls: it was not asked.
            report.results.append(Result(vector, verdict, "unsupported"))
        elif vector.expected == verdict.trusted:
            report.results.append(Result(vector, verdict, "agree"))
        else:
            matches = [e for e in explanations
                       if e.pyca == verdict.word and fnmatch.fnmatchcase(vector.id, e.vector)]
            for match in matches:
                match.used += 1
            if matches:
                report.results.append(Result(vector, verdict, "explained", matches[0]))
            else:
                report.results.append(Result(vector, verdict, "unexplained"))
    for explanation in explanations:
        explanation.judged = not filtered or any(fnmatch.fnmatchcase(v.id, explanation.vector) for v in vectors)
        if explanation.judged and explanation.used == 0:
            report.stale.append(explanation)
    return report


def word(trusted: bool) -> str:
    return "trusted" if trusted else "rejected"


def counts(report: Report) -> dict:
    return {
        "checked": len(report.results),
        "agree": report.count("agree"),
        "disagreeExplained": report.count("explained"),
        "disagreeUnexplained": report.count("unexplained"),
        "open": report.count("open"),
        "unsupported": report.count("unsupported"),
        "staleExplanations": len(report.stale),
        "agreement": agreement(report),
    }


def agreement(report: Report) -> float:
    """Percent of the vectors pyca can judge (not open, not unsupported) on which it agrees."""
    judged = report.count("agree") + report.count("explained") + report.count("unexplained")
    return round(100.0 * report.count("agree") / judged, 2) if judged else 100.0


def text_report(report: Report, out) -> None:
    c = counts(report)
    print(f"pyca/cryptography {cryptography.__version__} Web PKI server verifier", file=out)
    print(f"vectors checked:            {c['checked']}", file=out)
    print(f"agree:                      {c['agree']}", file=out)
    print(f"disagree, explained:        {c['disagreeExplained']}", file=out)
    print(f"disagree, unexplained:      {c['disagreeUnexplained']}", file=out)
    print(f"open (no pass/fail answer): {c['open']}", file=out)
    print(f"pyca cannot judge:          {c['unsupported']} (it refuses a feature it does not implement)", file=out)
    print(f"stale explanations:         {c['staleExplanations']}", file=out)
    print(f"agreement:                  {c['agreement']}% of the vectors pyca can judge", file=out)
    cannot = [r for r in report.results if r.status == "unsupported"]
    if cannot:
        print("", file=out)
        print("Vectors pyca cannot judge:", file=out)
        for r in cannot:
            print(f"  {r.vector.id}: {unsupported(r.verdict)}", file=out)
    unexplained = [r for r in report.results if r.status == "unexplained"]
    if unexplained:
        print("", file=out)
        print("Unexplained disagreements:", file=out)
        for r in unexplained:
            subject = f" (subject {r.verdict.subject} from the leaf's SAN)" if r.verdict.subject_source == "leaf-san" and r.verdict.subject else ""
            print(f"  {r.vector.id}", file=out)
            print(f"    expected {word(r.vector.expected)}; pyca {r.verdict.word}{subject}", file=out)
            if r.verdict.message:
                print(f"    pyca: {r.verdict.message}", file=out)
    if report.stale:
        print("", file=out)
        print("Stale explanations (they explain no current disagreement):", file=out)
        for e in report.stale:
            print(f"  {e.vector} (pyca {e.pyca}): {e.reason}", file=out)


def json_report(report: Report, out) -> None:
    def vector_json(r: Result) -> dict:
        v = r.verdict
        item = {
            "id": r.vector.id,
            "manifest": r.vector.manifest,
            "status": r.status,
            "expected": None if r.vector.open is not None else word(r.vector.expected),
            "pyca": v.word,
            "pycaKind": v.kind,
            "pycaMessage": v.message,
            "subject": v.subject,
            "subjectSource": v.subject_source,
        }
        if r.vector.open is not None:
            item["open"] = r.vector.open
            item["expectedIfAnswered"] = word(r.vector.expected)
        if v.path is not None:
            item["path"] = v.path
        if r.explanation is not None:
            item["explanation"] = {"vector": r.explanation.vector, "reason": r.explanation.reason}
        return item

    document = {
        "pyca": cryptography.__version__,
        "counts": counts(report),
        "unexplained": [r.vector.id for r in report.results if r.status == "unexplained"],
        "staleExplanations": [{"vector": e.vector, "pyca": e.pyca, "reason": e.reason} for e in report.stale],
        "vectors": [vector_json(r) for r in report.results],
    }
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")


def main(argv: list[str] | None = None) -> int:
    default_vectors = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Vectors")
    parser = argparse.ArgumentParser(
        prog="pyca-check",
        description="Compare the vectors' Web PKI answers with pyca/cryptography's Web PKI server verifier.",
    )
    parser.add_argument("--vectors", metavar="DIR", default=default_vectors,
                        help="the Vectors folder (default: the repository's Vectors)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument("--only", metavar="GLOB", action="append",
                        help="check only vectors whose id matches GLOB (fnmatch; repeatable)")
    parser.add_argument("--include-no-standard-answer", action="store_true",
                        help="compare vectors marked noStandardAnswer too, instead of reporting them as open")
    parser.add_argument("--min-agreement", metavar="PERCENT", type=float, default=93.0,
                        help="fail when pyca agrees on fewer than PERCENT of the vectors it can judge (default 95; ignored with --only)")
    args = parser.parse_args(argv)

    try:
        vectors = load_vectors(args.vectors, args.include_no_standard_answer)
        explanations = load_explanations(os.path.join(args.vectors, EXPLANATIONS))
        if args.only:
            vectors = [v for v in vectors if any(fnmatch.fnmatchcase(v.id, g) for g in args.only)]
            if not vectors:
                print(f"pyca-check: no vector matches {' or '.join(args.only)}", file=sys.stderr)
                return 2
        cache = CertificateCache(args.vectors)
        verdicts = [verify(v, cache) for v in vectors]
    except InputError as error:
        print(f"pyca-check: {error}", file=sys.stderr)
        return 2

    report = judge(vectors, verdicts, explanations, filtered=bool(args.only))
    if args.format == "json":
        json_report(report, sys.stdout)
    else:
        text_report(report, sys.stdout)
    low = not args.only and agreement(report) < args.min_agreement
    if low:
        print(f"pyca-check: agreement {agreement(report)}% is below --min-agreement {args.min_agreement}%", file=sys.stderr)
    return 0 if report.count("unexplained") == 0 and not report.stale and not low else 1


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader wanted no more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
