#!/usr/bin/env python3
"""An independent BagIt 1.0 (RFC 8493) validator, Python standard library only.

Usage: bagit_validate.py [--profile stimkit] BAG_DIR
Prints one line per problem ("ERROR: ..." / "WARNING: ..."), then VALID or INVALID.
Exit 0 when valid, 1 when not, 2 for a usage error or when BAG_DIR is not a folder.

Provenance. This file is a test fixture of stimkit: it exists so that stimkit's bags are checked
by code that does not share stimkit's TypeScript reader (src/verify/) or writer (src/bundle/).
It started from `bagval.py`, which an external reviewer wrote from the text of RFC 8493,
independently of stimkit's code. A stimkit engineer then reworked it, again against the RFC
(section numbers below), to remove the shortcuts the review draft took: it assumed LF line
endings, silently merged duplicate manifest lines, joined continuation lines without a space,
required Payload-Oxum (optional in the RFC), crashed when a tag manifest was missing, and did not
reject paths that leave the bag. It imports nothing from stimkit and reads no stimkit file.
Where it applies stimkit's stricter rules, it does so only under `--profile stimkit`.

What RFC 8493 requires and this checks (errors):
  2.1.1  bagit.txt exists, no byte order mark, exactly the two lines
         "BagIt-Version: M.N" and "Tag-File-Character-Encoding: ENC".
  2.1.2  the payload directory data/ exists.
  2.1.3  at least one payload manifest manifest-ALG.txt; lines are "checksum whitespace path",
         paths relative, "/"-separated, under data/, percent-encoding only %0A %0D %25;
         every payload file is listed in every payload manifest; every listed file exists and
         has the listed checksum; no path listed twice in one manifest.
  2.2.1  tag manifests tagmanifest-ALG.txt: every listed file exists and matches; they list no
         payload files and no tag manifests.
  2.2.2  bag-info.txt, when present: "Label: value" lines, continuation lines indented.
         Payload-Oxum, when present, equals "<payload octets>.<payload file count>".
  2.2.3  fetch.txt is not supported here: a bag with one is reported incomplete unless every
         file it names is present (the manifest checks then apply as usual).
  3      a valid bag is complete and every checksum verifies.
Warnings (SHOULD-level): md5/sha1 manifests (2.4), tag files a tag manifest does not list,
tag manifests whose algorithms differ from the payload manifests'.

--profile stimkit adds: version 1.0, UTF-8, manifest-sha256.txt and tagmanifest-sha256.txt
present, the tag manifest lists bagit.txt, bag-info.txt and every payload manifest, and
bag-info.txt carries Payload-Oxum.
"""

import codecs
import hashlib
import os
import re
import sys

ALGORITHMS = {"md5": hashlib.md5, "sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512}


class Report:
    def __init__(self):
        self.errors = []
        self.warnings = []

    def error(self, msg):
        self.errors.append(msg)

    def warn(self, msg):
        self.warnings.append(msg)


def split_lines(text):
    """Lines ended by LF, CR or CRLF (RFC 8493 2.1 allows all three); no trailing empty line."""
    lines = re.split(r"\r\n|\n|\r", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def file_digest(path, algorithm):
    h = ALGORITHMS[algorithm]()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def decode_path(p):
    """Undo the percent-encoding of 2.1.3: only %0A, %0D and %25 (either case)."""
    return re.sub(r"%(0[aAdD]|25)", lambda m: chr(int(m.group(1), 16)), p)


def bad_path(p):
    """Why a manifest path cannot name a file inside the bag, or None."""
    if p.startswith("/") or re.match(r"^[A-Za-z]:", p):
        return "absolute path"
    if "\\" in p:
        return "backslash in path (the separator is /)"
    parts = p.split("/")
    if any(s in ("", ".", "..") for s in parts):
        return "empty, '.' or '..' path segment"
    return None


def read_text(report, bag, name, encoding):
    try:
        raw = open(os.path.join(bag, name), "rb").read()
    except OSError as e:
        report.error(f"{name}: cannot read ({e.strerror})")
        return None
    try:
        return raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        report.error(f"{name}: not valid {encoding}")
        return None


def parse_manifest(report, bag, name, encoding):
    """{path: checksum} of a manifest, reporting malformed and duplicate lines."""
    text = read_text(report, bag, name, encoding)
    entries = {}
    if text is None:
        return entries
    for n, line in enumerate(split_lines(text), 1):
        if line.strip() == "":
            continue
        m = re.fullmatch(r"([0-9A-Fa-f]+)[ \t]+(.+)", line)
        if not m:
            report.error(f"{name}:{n}: not 'checksum path': {line[:80]!r}")
            continue
        path = decode_path(m.group(2))
        if path in entries:
            report.error(f"{name}:{n}: {path} listed twice")
            continue
        entries[path] = m.group(1).lower()
    return entries


def parse_bag_info(report, text):
    fields = []
    for n, line in enumerate(split_lines(text), 1):
        if line == "":
            continue
        if line[0] in " \t":
            if not fields:
                report.error(f"bag-info.txt:{n}: continuation line without a label")
            else:
                label, value = fields[-1]
                fields[-1] = (label, value + " " + line.strip())
            continue
        m = re.fullmatch(r"([^:\s][^:]*?):[ \t](.*)", line)
        if not m:
            report.error(f"bag-info.txt:{n}: not 'Label: value': {line[:80]!r}")
            continue
        fields.append((m.group(1), m.group(2).strip()))
    return fields


def walk_files(bag, top):
    """Bag-relative paths of every non-directory under bag/top. Symbolic links are listed as
    entries, never followed (os.walk puts a link to a folder among the folders)."""
    out = []
    for root, dirs, files in os.walk(os.path.join(bag, top)):
        names = files + [d for d in dirs if os.path.islink(os.path.join(root, d))]
        for name in names:
            out.append(os.path.relpath(os.path.join(root, name), bag).replace(os.sep, "/"))
    return sorted(out)


def check_listed(report, bag, name, algorithm, entries, on_disk):
    for path, checksum in sorted(entries.items()):
        full = os.path.join(bag, *path.split("/"))
        if path not in on_disk:
            report.error(f"{name}: lists {path}, which is not in the bag")
        elif os.path.islink(full) or not os.path.isfile(full):
            report.error(f"{name}: {path} is not a regular file")
        elif file_digest(full, algorithm) != checksum:
            report.error(f"{name}: checksum mismatch for {path}")


def validate(bag, profile=None):
    report = Report()
    names = sorted(os.listdir(bag))

    # 2.1.1 bagit.txt
    encoding = "utf-8"
    if "bagit.txt" not in names:
        report.error("bagit.txt is missing (2.1.1)")
        return report
    raw = open(os.path.join(bag, "bagit.txt"), "rb").read()
    if raw.startswith(codecs.BOM_UTF8):
        report.error("bagit.txt starts with a byte order mark (2.1.1)")
        raw = raw[len(codecs.BOM_UTF8):]
    decl = split_lines(raw.decode("utf-8", "replace"))
    version = enc = None
    if len(decl) != 2:
        report.error(f"bagit.txt must have exactly two lines, has {len(decl)} (2.1.1)")
    for line in decl:
        m = re.fullmatch(r"BagIt-Version: (\d+)\.(\d+)", line)
        if m:
            version = (int(m.group(1)), int(m.group(2)))
            continue
        m = re.fullmatch(r"Tag-File-Character-Encoding: (\S+)", line)
        if m:
            enc = m.group(1)
            continue
        report.error(f"bagit.txt: unexpected line {line!r} (2.1.1)")
    if version is None:
        report.error("bagit.txt: no 'BagIt-Version: M.N' line")
    elif version != (1, 0):
        (report.error if profile else report.warn)(f"bagit.txt: BagIt-Version {version[0]}.{version[1]}, this validator implements 1.0")
    if enc is None:
        report.error("bagit.txt: no 'Tag-File-Character-Encoding' line")
    else:
        try:
            encoding = codecs.lookup(enc).name
        except LookupError:
            report.error(f"bagit.txt: unknown encoding {enc}")
        if profile and encoding != "utf-8":
            report.error(f"bagit.txt: encoding {enc}, the stimkit profile needs UTF-8")

    # 2.1.2 payload directory
    if not os.path.isdir(os.path.join(bag, "data")) or os.path.islink(os.path.join(bag, "data")):
        report.error("the payload directory data/ is missing (2.1.2)")
    payload = walk_files(bag, "data") if os.path.isdir(os.path.join(bag, "data")) else []
    payload_set = set(payload)

    # 2.1.3 payload manifests
    manifests = [n for n in names if re.fullmatch(r"manifest-[a-z0-9]+\.txt", n)]
    tagmanifests = [n for n in names if re.fullmatch(r"tagmanifest-[a-z0-9]+\.txt", n)]
    if not manifests:
        report.error("no payload manifest manifest-ALG.txt (2.1.3)")
    for name in manifests:
        algorithm = name[len("manifest-"):-len(".txt")]
        if algorithm not in ALGORITHMS:
            report.error(f"{name}: unsupported algorithm {algorithm}")
            continue
        if algorithm in ("md5", "sha1"):
            report.warn(f"{name}: {algorithm} SHOULD NOT be used for new bags (2.4)")
        entries = parse_manifest(report, bag, name, encoding)
        for path in list(entries):
            why = bad_path(path) or (None if path.startswith("data/") else "not under data/")
            if why:
                report.error(f"{name}: {path!r}: {why}")
                del entries[path]
        for path in payload:
            if path not in entries:
                report.error(f"{name}: payload file {path} is not listed (2.1.3)")
        check_listed(report, bag, name, algorithm, entries, payload_set)

    # 2.2.1 tag manifests
    tag_files = {p for p in walk_files(bag, ".") if not p.startswith("data/")}
    listed_tags = {}
    for name in tagmanifests:
        algorithm = name[len("tagmanifest-"):-len(".txt")]
        if algorithm not in ALGORITHMS:
            report.error(f"{name}: unsupported algorithm {algorithm}")
            continue
        if manifests and algorithm not in [m[len("manifest-"):-len(".txt")] for m in manifests]:
            report.warn(f"{name}: no payload manifest uses {algorithm}")
        entries = parse_manifest(report, bag, name, encoding)
        for path in list(entries):
            why = bad_path(path)
            if not why and path.startswith("data/"):
                why = "a payload file in a tag manifest"
            if not why and re.fullmatch(r"tagmanifest-[a-z0-9]+\.txt", path):
                why = "a tag manifest listed in a tag manifest"
            if why:
                report.error(f"{name}: {path!r}: {why} (2.2.1)")
                del entries[path]
        listed_tags[name] = set(entries)
        check_listed(report, bag, name, algorithm, entries, tag_files)
    for path in sorted(tag_files):
        if tagmanifests and not re.fullmatch(r"tagmanifest-[a-z0-9]+\.txt", path) and not any(path in s for s in listed_tags.values()):
            report.warn(f"tag file {path} is in no tag manifest")

    # 2.2.2 bag-info.txt and Payload-Oxum
    info = {}
    if "bag-info.txt" in names:
        text = read_text(report, bag, "bag-info.txt", encoding)
        for label, value in parse_bag_info(report, text or ""):
            info.setdefault(label, value)
    oxum = info.get("Payload-Oxum")
    if oxum is not None:
        octets = sum(os.lstat(os.path.join(bag, *p.split("/"))).st_size for p in payload)
        if not re.fullmatch(r"\d+\.\d+", oxum):
            report.error(f"bag-info.txt: malformed Payload-Oxum {oxum!r}")
        elif oxum != f"{octets}.{len(payload)}":
            report.error(f"bag-info.txt: Payload-Oxum {oxum} but the payload is {octets}.{len(payload)}")

    # 2.2.3 fetch.txt
    if "fetch.txt" in names:
        report.warn("fetch.txt present: fetching is not supported; only the files present are checked")

    if profile == "stimkit":
        if "manifest-sha256.txt" not in manifests:
            report.error("stimkit profile: manifest-sha256.txt is missing")
        if "tagmanifest-sha256.txt" not in tagmanifests:
            report.error("stimkit profile: tagmanifest-sha256.txt is missing")
        else:
            for required in ["bagit.txt", "bag-info.txt"] + manifests:
                if required not in listed_tags.get("tagmanifest-sha256.txt", set()):
                    report.error(f"stimkit profile: tagmanifest-sha256.txt does not list {required}")
        if oxum is None:
            report.error("stimkit profile: bag-info.txt has no Payload-Oxum")
    return report


def main(argv):
    args = argv[1:]
    profile = None
    if len(args) == 3 and args[0] == "--profile" and args[1] == "stimkit":
        profile, args = "stimkit", args[2:]
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    bag = args[0]
    if not os.path.isdir(bag):
        print(f"ERROR: {bag} is not a folder", file=sys.stderr)
        return 2
    report = validate(bag, profile)
    for w in report.warnings:
        print(f"WARNING: {w}")
    for e in report.errors:
        print(f"ERROR: {e}")
    print("INVALID" if report.errors else "VALID")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
