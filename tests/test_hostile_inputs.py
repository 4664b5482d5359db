"""A catalogue of hostile and broken input. Every input file, or record, ends in exactly one place:
an articles row or a quarantine row (discovery's skipped entries are quarantine rows too), with a
reason a person can act on; nothing crashes, hangs or goes missing.

All fixtures are generated here in a temporary RAW_DIR, one folder per case, and cleaned in one
pass through the same steps as the flow (discover -> newsclean.cleaners.batch.clean_sources ->
newsclean.schemas.validate.validate_batch), without Prefect. Slow inputs (a 20 MB line, the time limit) have
their own tests.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import re
import struct
import sys
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import newsclean.cleaners.readers as readers
from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import discover, read_bounded, reader_for
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from newsclean.schemas.validate import failing_rows, validate_batch

PROSE = (
    "The city council voted on Tuesday to approve a new budget for the coming year, officials said.\n\n"
    "The plan raises spending on schools and roads while cutting the cost of running the town hall.\n\n"
    "\"We listened to residents and this budget reflects what they asked for,\" the mayor told reporters.\n\n"
    "The budget takes effect in May after a final reading next month, according to the council.\n"
)
ARTICLE = "City Council Approves New Budget\n\n" + PROSE
_WHO = ["the mayor", "a spokeswoman", "the treasurer", "two residents", "the opposition leader", "a local teacher"]
_WHAT = ["the road repairs", "the new library", "bus fares", "the school budget", "park maintenance", "the water bill"]
# One long paragraph of varied sentences (over 4 KB, so a byte placed after it is past the head
# that the binary check looks at).
LONG_PARAGRAPH = " ".join(
    f"On the {i + 2}th day of the debate, {_WHO[i % 6]} argued that {_WHAT[(i * 5) % 6]} would cost "
    f"{(i * 37) % 90 + 10} million dollars over {i % 7 + 2} years." for i in range(70)) + "\n\n"
ACTIONABLE = re.compile(
    r"\b(check|remove|re-?save|fix|rename|raise|split|re-?run|copy|report|convert|re-?download|re-?export|"
    r"re-?compress|replace|add|move|use|not followed|delete|wait|expected|must)\b", re.I)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes([x * 8 % 256, 0, 0]) * 32 for x in range(32))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def pdf() -> bytes:
    return (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
            b"xref\n0 3\n0000000000 65535 f \ntrailer << /Size 3 /Root 1 0 R >>\nstartxref\n0\n%%EOF\n")


def zipped() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("article.txt", ARTICLE)
    return buf.getvalue()


def jpeg() -> bytes:
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + bytes(range(256)) * 40 + b"\xff\xd9"


@dataclass
class Case:
    """`make(folder)` creates the case's entries in its folder. `expect`: "article", "quarantine" or
    "either" for each entry (files, or records for record files); `reason`: a regex the quarantine
    reason must match; `check(articles, quarantine)` any extra assertion on the case's rows."""
    name: str
    make: Callable[[Path], None]
    expect: str
    reason: str | None = None
    check: Callable[[list[dict], list[dict]], None] | None = None
    between: Callable[[Path], None] | None = None  # runs after discovery, before reading
    needs: str | None = None  # a suffix some reader must accept, else the entries are not input at all
    records: int | None = None  # record files: how many documents (articles + quarantined) it holds
    marks: list = field(default_factory=list)


def w(name: str, data: bytes | str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        (folder / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return make


def _mixed_line_ends_check(arts, quar):
    (a,) = arts
    assert "Watch LIVE" not in a["text"] and a["text"].count("\n\n") == 3
    lines = {r["text"]: r["line"] for r in a["_removed"]}
    assert lines.get("Watch LIVE") == 1 and lines.get("Advertisement") == 5, lines


def _jsonl_truncated(folder: Path) -> None:
    recs = [json.dumps({"id": i, "title": "Council Approves Budget", "text": PROSE.replace("Tuesday", f"day {i}")}) for i in range(3)]
    (folder / "news.jsonl").write_text("\n".join(recs) + "\n" + recs[0][:40], encoding="utf-8")


def _csv_unbalanced(folder: Path) -> None:
    good = PROSE.replace('"', "'").replace("\n", " ")
    (folder / "news.csv").write_text(f'id,title,text\n1,Council Approves Budget,"{good}"\n2,Broken Record,"{good}\n3,Third,"{good}"\n', encoding="utf-8")


def _parquet_wrong_columns(folder: Path) -> None:
    pq.write_table(pa.table({"headline": ["a", "b"], "body_html_x": [1, 2]}), folder / "news.parquet")


def _gz_truncated(folder: Path) -> None:
    data = gzip.compress((json.dumps({"text": PROSE}) + "\n").encode() * 50)
    (folder / "news.jsonl.gz").write_bytes(data[: len(data) // 2])


def _vanishes(folder: Path) -> None:
    (folder / "gone.txt").write_text(ARTICLE)


def _vanish(folder: Path) -> None:
    (folder / "gone.txt").unlink()


def _changes(folder: Path) -> None:
    (folder / "changed.txt").write_text("Watch LIVE\n\nWhat do you think?\n")


def _change(folder: Path) -> None:
    (folder / "changed.txt").write_text(ARTICLE.replace("Tuesday", "Wednesday"))


def _becomes_dir(folder: Path) -> None:
    (folder / "now-a-dir.txt").write_text(ARTICLE)


def _become_dir(folder: Path) -> None:
    (folder / "now-a-dir.txt").unlink()
    (folder / "now-a-dir.txt").mkdir()


def _symlink_outside(folder: Path) -> None:
    outside = folder.parent.parent / "outside-secret.txt"
    outside.write_text(ARTICLE.replace("budget", "secret plan"))
    (folder / "link.txt").symlink_to(outside)


def _symlink_dir_outside(folder: Path) -> None:
    outside = folder.parent.parent / "outside-dir"
    outside.mkdir(exist_ok=True)
    (outside / "inner.txt").write_text(ARTICLE.replace("budget", "hidden plan"))
    (folder / "linked-folder").symlink_to(outside, target_is_directory=True)


def _broken_link(folder: Path) -> None:
    (folder / "broken.txt").symlink_to(folder / "does-not-exist.txt")


def _loop_link(folder: Path) -> None:
    (folder / "a.txt").symlink_to(folder / "b.txt")
    (folder / "b.txt").symlink_to(folder / "a.txt")


def _fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe.txt")


def _duplicate(folder: Path) -> None:
    (folder / "one.txt").write_text(ARTICLE)
    (folder / "two.txt").write_text(ARTICLE)


def _names(folder: Path) -> None:
    for name in ("with spaces in name.txt", "new\nline.txt", "caf\u00e9 \u65e5\u672c \U0001f4f0.txt", "-rf --all.txt", "tab\there.txt"):
        (folder / name).write_text(ARTICLE.replace("Tuesday", name.replace("\n", " ").replace("\t", " ")))


def _bad_name(folder: Path) -> None:
    os.close(os.open(os.fsencode(folder) + b"/caf\xe9-latin1.txt", os.O_CREAT | os.O_WRONLY, 0o644))
    with open(os.fsencode(folder) + b"/caf\xe9-latin1.txt", "wb") as fh:
        fh.write(ARTICLE.encode())


def _names_check(arts, quar):
    assert not quar, quar
    assert {a["source"].split("/", 1)[1] for a in arts} == {
        "with spaces in name.txt", "new\nline.txt", "caf\u00e9 \u65e5\u672c \U0001f4f0.txt", "-rf --all.txt", "tab\there.txt"}


def _out_dir_inside(folder: Path) -> None:
    out = folder / "clean"
    out.mkdir()
    (out / ".newsclean.lock").write_text("{}")
    (out / "run.json").write_text("{}")
    pq.write_table(pa.table({"doc_id": ["0123456789abcdef"], "text": [ARTICLE]}), out / "articles.parquet")
    (out / "stray.txt").write_text(ARTICLE)


def _deep_html() -> str:
    return "<html><body>" + "<div>" * 100_000 + "<p>" + PROSE + "</p>" + "</div>" * 100_000 + "</body></html>"


def _cookie_wall() -> str:
    return ("<html><head><title>Consent</title></head><body><div class='cookie-banner'>"
            "<p>We use cookies to improve your experience. By continuing to browse you accept our use of cookies.</p>"
            "<button>Accept all</button><button>Manage settings</button></div></body></html>")


def _not_in_text(needle):
    def check(arts, quar):
        assert all(needle not in a["text"] for a in arts)
    return check


def _text_contains(*needles):
    def check(arts, quar):
        (a,) = arts
        for n in needles:
            assert n in a["text"], (n, a["text"][:300])
    return check


CASES = [
    Case("empty file", w("empty.txt", b""), "quarantine", r"empty|no article body|no text"),
    Case("white space only", w("blank.txt", " \n\t\n   \r\n\u00a0\n"), "quarantine", r"empty|no article body|no text"),
    Case("BOM only", w("bom.txt", b"\xef\xbb\xbf"), "quarantine", r"empty|no article body|no text"),
    Case("PNG named .txt", w("image.txt", png()), "quarantine", r"binary"),
    Case("PDF named .txt", w("doc.txt", pdf()), "quarantine", r"binary"),
    Case("zip named .txt", w("archive.txt", zipped()), "quarantine", r"binary"),
    Case("NUL bytes at the start", w("nul.txt", b"\x00\x00\x00" + ARTICLE.encode()), "quarantine", r"binary"),
    Case("a NUL byte deep in the text", w("late-nul.txt", (ARTICLE + LONG_PARAGRAPH + "\x00 The vote on the plan is expected in June, the clerk said.\n").encode()), "article",
         check=lambda a, q: [x for x in a if "\x00" in x["text"]] == []),
    Case("random bytes", w("noise.txt", bytes((i * 7919 + 13) % 256 for i in range(20_000))), "quarantine", r"binary|encoding|not valid"),
    Case("invalid UTF-8 in the middle of valid text",
         w("bad-utf8.txt", ARTICLE.replace("Tuesday", "Tuesday \u00e9t\u00e9").encode()[:120] + b"\xff\xfe\x80\xc3" + ARTICLE.encode()[120:]),
         "article", check=_text_contains("town hall", "mayor")),
    Case("UTF-16 LE without BOM", w("utf16le.txt", ARTICLE.encode("utf-16-le")), "article", check=_text_contains("town hall")),
    Case("UTF-16 BE without BOM", w("utf16be.txt", ARTICLE.encode("utf-16-be")), "article", check=_text_contains("town hall")),
    Case("UTF-32 with BOM", w("utf32.txt", ARTICLE.encode("utf-32")), "article", check=_text_contains("town hall")),
    Case("cp1252 legacy text", w("legacy.txt", ARTICLE.replace("budget", "budget \u2013 caf\u00e9 r\u00e9sum\u00e9").encode("cp1252")),
         "article", check=_text_contains("caf\u00e9")),
    Case("mojibake (UTF-8 read as cp1252)", w("mojibake.txt", ARTICLE.replace("mayor", "mayor\u2019s caf\u00e9").encode("utf-8").decode("cp1252").encode("utf-8")),
         "article", check=_text_contains("mayor's caf\u00e9")),
    Case("mixed line ends", w("mixed.txt", "Watch LIVE\r\nCity Council Approves New Budget\r\r" + PROSE.split("\n\n")[0]
                              + "\nAdvertisement\r\n\n" + "\r\n\r\n".join(PROSE.split("\n\n")[1:])),
         "article", check=_mixed_line_ends_check),
    Case("control characters and terminal escapes", w("ctrl.txt", ARTICLE.replace("officials", "offi\x1b[31mcials\x1b[0m\x07\x0b")),
         "article", check=lambda a, q: [x for x in a if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", x["text"])] == []),
    Case("line and paragraph separators", w("seps.txt", ARTICLE.replace("\n\n", "\u2028\u2029", 2)), "either",
         check=lambda a, q: [x for x in a if re.search("[\u2028\u2029]", x["text"])] == []),
    Case("no-break and zero-width spaces", w("spaces.txt", ARTICLE.replace(" ", "\u00a0", 20).replace("council", "coun\u200bcil")),
         "article", check=lambda a, q: [x for x in a if "\u00a0" in x["text"]] == []),
    Case("only punctuation and emoji", w("emoji.txt", "!!! ??? \U0001f600\U0001f600 ... --- ***\n\n\U0001f4f0\n"), "quarantine", r"no article body"),
    Case("all debris", w("debris.txt", "Watch LIVE\n\nWhat do you think?\n"), "quarantine", r"no article body found"),
    Case("200k empty lines around one paragraph", w("many-lines.txt", "\n" * 200_000 + ARTICLE + "\r\n" * 100_000), "article"),
    Case("one 100k-character word", w("longword.txt", "x" * 100_000 + "\n\n" + ARTICLE), "either"),
    Case("directory named x.txt", lambda f: (f / "folder.txt").mkdir(), "quarantine", r"is a directory"),
    Case("symlink pointing outside RAW_DIR", _symlink_outside, "quarantine", r"outside RAW_DIR.*not followed",
         check=_not_in_text("secret plan")),
    Case("symlinked folder outside RAW_DIR", _symlink_dir_outside, "quarantine", r"outside RAW_DIR.*not followed",
         check=_not_in_text("hidden plan")),
    Case("broken symlink", _broken_link, "quarantine", r"broken"),
    Case("symlink loop", _loop_link, "quarantine", r"broken or loops|loop"),
    Case("FIFO named .txt (must not hang)", _fifo, "quarantine", r"not a regular file"),
    Case("file vanishes between discovery and reading", _vanishes, "quarantine", r"disappeared", between=_vanish),
    Case("file changes between discovery and reading", _changes, "article", between=_change, check=_text_contains("Wednesday")),
    Case("file replaced by a folder after discovery", _becomes_dir, "quarantine", r"directory", between=_become_dir),
    Case("unreadable file", w("secret.txt", ARTICLE), "quarantine", r"permission denied"),
    Case("same bytes under two names", _duplicate, "either", check=lambda a, q: (
        len(a) == 1 and len(q) == 1 and "duplicate" in q[0]["error"] and a[0]["source"].endswith("one.txt")) or pytest.fail(f"{a} {q}")),
    Case("names with spaces, newlines, tabs, non-ASCII, leading dashes", _names, "article", check=_names_check),
    Case("name that is not valid UTF-8", _bad_name, "quarantine", r"not valid UTF-8"),
    Case("OUT_DIR inside RAW_DIR (our own tables are not input)", _out_dir_inside, "quarantine", r"newsclean OUT_DIR.*not read as input",
         check=lambda a, q: [x for x in q if x["source"].endswith("/clean")] != [] or pytest.fail(str(q))),
    Case("over the size limit (200 MB, sparse)", lambda f: os.truncate(f / "huge.txt", 200_000_000) if (f / "huge.txt").touch() is None else None,
         "quarantine", r"over the max_bytes limit"),
    # Formats read by cleaners/readers/{html,records,compressed,warc}.py
    Case("HTML nested 100k levels deep", w("deep.html", _deep_html()), "either", needs=".html"),
    Case("JPEG named .html", w("photo.html", jpeg()), "quarantine", r"binary|not.*html|no text", needs=".html"),
    Case("empty HTML page", w("empty.html", "<html><head><script>var x = 1;</script></head><body></body></html>"), "quarantine",
         r"no text|no article body", needs=".html"),
    Case("page that is only a cookie wall", w("cookies.html", _cookie_wall()), "quarantine", r"no article body|cookie|no text",
         needs=".html"),
    Case("JSONL with a truncated last line", _jsonl_truncated, "either", r"not valid JSON", needs=".jsonl", records=4,
         check=lambda a, q: (len(a), len(q)) == (3, 1) or pytest.fail(f"{len(a)} articles, {q}")),
    Case("JSON that is not an array of records", w("obj.json", '{"hello": "world"}'), "quarantine", r"record|JSON", needs=".json"),
    Case("CSV with an unbalanced quote", _csv_unbalanced, "either", r"quot|malformed|fields", needs=".csv"),
    Case("Parquet with the wrong columns", _parquet_wrong_columns, "quarantine", r"no content|column|field", needs=".parquet"),
    Case("Parquet that is not Parquet", w("fake.parquet", b"PAR1 this is not parquet at all"), "quarantine", r"not a readable Parquet|Parquet", needs=".parquet"),
    Case("truncated gzip", _gz_truncated, "either", r"truncated", needs=".jsonl.gz"),
    Case("WARC that is not a WARC", w("bad.warc", b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 999999\r\n\r\nshort"), "quarantine",
         r"WARC", needs=".warc"),
]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """Build every case in RAW_DIR/<nn>/, discover, (run the `between` hooks), clean, validate."""
    base = tmp_path_factory.mktemp("hostile")
    raw = base / "raw"
    raw.mkdir()
    folders = {}
    for i, case in enumerate(CASES):
        folder = raw / f"{i:02d}"
        folder.mkdir()
        case.make(folder)
        folders[case.name] = folder
    unreadable = folders["unreadable file"] / "secret.txt"
    t0 = time.perf_counter()
    sources, skipped = discover(raw)
    for case in CASES:
        if case.between:
            case.between(folders[case.name])
    real_open = os.open

    def open_denied(path, flags, *args, **kw):  # root reads any file: deny this one as the OS would
        if Path(os.fsdecode(path)) == unreadable.resolve():
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return real_open(path, flags, *args, **kw)

    settings = Settings()
    with pytest.MonkeyPatch.context() as mp:
        if IS_ROOT:
            mp.setattr(readers.os, "open", open_denied)
        else:
            unreadable.chmod(0)
        result = validate_batch(clean_sources(raw, sources, settings))
    elapsed = time.perf_counter() - t0
    result.quarantine += [{"source": s, "doc_id": None, "stage": "discover", "error": why} for s, why in skipped]
    removed_by_doc: dict[str, list[dict]] = {}
    for r in result.removed:
        removed_by_doc.setdefault(r["doc_id"], []).append(r)
    for a in result.articles:
        a["_removed"] = removed_by_doc.get(a["doc_id"], [])
    return {"raw": raw, "folders": folders, "sources": sources, "result": result, "elapsed": elapsed}


def _rows(catalogue, case: Case) -> tuple[list[dict], list[dict]]:
    prefix = catalogue["folders"][case.name].relative_to(catalogue["raw"]).as_posix() + "/"
    arts = [a for a in catalogue["result"].articles if a["source"].startswith(prefix)]
    quar = [q for q in catalogue["result"].quarantine if q["source"].startswith(prefix)]
    return arts, quar


def test_catalogue_has_at_least_30_kinds():
    assert len(CASES) >= 30
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name, marks=c.marks) for c in CASES])
def test_case_ends_in_exactly_one_place(catalogue, case):
    arts, quar = _rows(catalogue, case)
    if case.needs and reader_for("x" + case.needs) is None:
        # That format's reader is not registered: its files are not input, so nothing is written.
        assert not arts and not quar
        pytest.skip(f"no reader registered for {case.needs} yet")
    folder = catalogue["folders"][case.name]
    entries = sorted(p for p in os.listdir(folder))
    assert arts or quar, f"{case.name}: the input went missing"
    sources = [a["source"] for a in arts] + [q["source"] for q in quar]
    assert len(sources) == len(set(sources)), f"{case.name}: a source is in two places: {sources}"
    prefix = folder.relative_to(catalogue["raw"]).as_posix() + "/"
    for entry in entries:  # every file in the case's folder is accounted for
        name = readers.display_name(prefix + entry)
        assert any(s == name or s.startswith(name + "#") for s in sources), f"{case.name}: {name!r} is neither article nor quarantined"
    if case.records is not None:
        assert len(sources) == case.records, sources
    if case.expect == "article":
        assert not quar, f"{case.name}: expected an article, got {quar}"
    elif case.expect == "quarantine":
        assert not arts, f"{case.name}: expected quarantine, got an article: {arts[0]['text'][:200]!r}"
    for q in quar:
        assert len(q["error"]) >= 20 and ACTIONABLE.search(q["error"]), f"{case.name}: reason not actionable: {q['error']!r}"
        if case.reason and (case.expect == "quarantine" or len(quar) == 1):
            assert re.search(case.reason, q["error"], re.I), f"{case.name}: {q['error']!r} !~ {case.reason}"
    for a in arts:
        assert failing_rows("articles", [{k: v for k, v in a.items() if k != "_removed"}]) == {}
    if case.check:
        case.check(arts, quar)


def test_nothing_outside_the_cases_and_all_rows_valid(catalogue):
    result = catalogue["result"]
    assert failing_rows("articles", [{k: v for k, v in a.items() if k != "_removed"} for a in result.articles]) == {}
    assert failing_rows("quarantine", result.quarantine) == {}
    assert all(re.match(r"\d\d/", s) for s in [a["source"] for a in result.articles] + [q["source"] for q in result.quarantine])
    assert catalogue["elapsed"] < 120, f"the catalogue took {catalogue['elapsed']:.0f} s"


def test_oversized_file_is_refused_without_reading_it(tmp_path, monkeypatch):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:  # sparse: 200 MB on paper, nothing on disk
        fh.truncate(200_000_000)
    read = []
    real_read = os.read
    monkeypatch.setattr(readers.os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    with pytest.raises(DocumentError, match="over the max_bytes limit"):
        read_bounded(tmp_path, "big.txt", 50_000_000)
    assert read == []  # refused on its size alone


def test_a_file_that_grows_is_never_read_past_the_limit(tmp_path, monkeypatch):
    """The size check can be outrun (a file still being written): reading stops at the limit."""
    (tmp_path / "growing.txt").write_bytes(b"x" * 3_000_000)
    real_fstat = os.fstat
    monkeypatch.setattr(readers.os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))
    got = []
    real_read = os.read
    monkeypatch.setattr(readers.os, "read", lambda fd, n: got.append(len(b := real_read(fd, n))) or b)
    with pytest.raises(DocumentError, match="grew over the max_bytes limit"):
        read_bounded(tmp_path, "growing.txt", 1_000_000)
    assert sum(got) <= 1_000_001


def test_size_limit_is_a_setting(tmp_path):
    (tmp_path / "a.txt").write_text(ARTICLE)
    small = Settings(max_bytes=100)
    out = clean_sources(tmp_path, ["a.txt"], small)
    assert not out.articles and "max_bytes limit of 100" in out.quarantine[0]["error"]
    assert clean_sources(tmp_path, ["a.txt"], Settings()).articles


def test_read_refuses_paths_outside_raw_dir(tmp_path):
    (tmp_path / "raw").mkdir()
    (tmp_path / "secret.txt").write_text(ARTICLE)
    with pytest.raises(DocumentError, match="outside RAW_DIR"):
        read_bounded(tmp_path / "raw", "../secret.txt", 10_000)


@pytest.mark.slow
def test_one_20_mb_line(tmp_path):
    sentence = "The council said the budget would pay for new schools, roads and parks across the city. "
    (tmp_path / "line.txt").write_text(sentence * (20_000_000 // len(sentence)))
    t0 = time.perf_counter()
    out = validate_batch(clean_sources(tmp_path, ["line.txt"], Settings()))
    assert len(out.articles) + len(out.quarantine) == 1
    if out.quarantine:  # stopped by the time limit, or judged (e.g. by the line model) not an article
        assert out.quarantine[0]["stage"] in ("timeout", "decide") and ACTIONABLE.search(out.quarantine[0]["error"])
    else:
        assert out.articles[0]["n_words"] > 3_000_000
    assert time.perf_counter() - t0 < 90


# ---------------------------------------------------------------- the per-document time limit
import signal  # noqa: E402
import threading  # noqa: E402

import newsclean.cleaners.batch as batch  # noqa: E402
from newsclean.cleaners.timelimit import DocumentTimeout, time_limit  # noqa: E402


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_time_limit_stops_python_code_in_the_main_thread():
    t0 = time.perf_counter()
    with pytest.raises(DocumentTimeout):
        with time_limit(0.2) as limit:
            assert limit.mechanism == "signal"
            _spin(5)
    assert time.perf_counter() - t0 < 1.5


def test_time_limit_falls_back_to_an_async_exception_in_other_threads():
    seen = {}

    def work():
        t0 = time.perf_counter()
        try:
            with time_limit(0.2) as limit:
                seen["mechanism"] = limit.mechanism
                _spin(5)
        except DocumentTimeout:
            seen["stopped_after"] = time.perf_counter() - t0

    th = threading.Thread(target=work)
    th.start()
    th.join(10)
    assert seen["mechanism"] == "thread" and seen["stopped_after"] < 1.5


def test_time_limit_is_disarmed_after_the_block():
    with time_limit(0.2):
        pass
    _spin(0.4)  # no stray alarm
    with time_limit(None) as limit:
        assert limit.mechanism == "none"


class _OuterAlarm(Exception):
    pass


def _outer_alarm(signum, frame):
    raise _OuterAlarm


def test_the_callers_own_timer_is_deferred_not_lost():
    """A real-time timer set before the limit (a watchdog, pytest-timeout's signal method) runs on
    after the block with what was left of it; one that came due inside the block fires at its end."""
    previous = signal.signal(signal.SIGALRM, _outer_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        with time_limit(5):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        inside = []
        with pytest.raises(_OuterAlarm):
            with time_limit(5) as limit:
                _spin(0.3)  # the outer timer comes due here: deferred, not raised inside
                inside.append(True)
            _spin(1.0)  # raised as soon as the block is left
        assert inside and not limit.fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# An alarm may land in a gc callback (hypothesis installs one) or a finaliser, where Python cannot
# raise: the limit then fires again and the hook leaves it unreported (newsclean.cleaners.timelimit),
# which is what these tests show.
def test_slow_document_is_quarantined_and_the_run_goes_on(tmp_path):
    """A real slow input: a 4 MB document (seconds of work) against a 0.5 s limit; the next
    document is cleaned."""
    (tmp_path / "a-slow.txt").write_text((PROSE * 12_000)[:4_000_000])
    (tmp_path / "b-fine.txt").write_text(ARTICLE)
    clean_sources(tmp_path, ["b-fine.txt"], Settings())  # warm caches (outlet registry, regexes)
    t0 = time.perf_counter()
    out = validate_batch(clean_sources(tmp_path, ["a-slow.txt", "b-fine.txt"], Settings(doc_timeout_s=0.5)))
    assert time.perf_counter() - t0 < 10
    assert [a["source"] for a in out.articles] == ["b-fine.txt"]
    (q,) = out.quarantine
    assert q["source"] == "a-slow.txt" and q["stage"] == "timeout" and q["doc_id"]
    assert "doc_timeout_s limit of 0.5 s" in q["error"] and "raise doc_timeout_s" in q["error"]
    assert Settings().doc_timeout_s == 30


def test_a_swallowed_timeout_still_quarantines(tmp_path, monkeypatch):
    """Library code that catches everything cannot turn a stopped document into an article."""
    def greedy(raw, settings):
        try:
            _spin(2)
        except BaseException:  # noqa: BLE001 - what a careless library might do
            pass
        return (yield from real(raw, settings))

    real = batch.clean_document_steps
    monkeypatch.setattr(batch, "clean_document_steps", greedy)
    (tmp_path / "a.txt").write_text(ARTICLE)
    out = clean_sources(tmp_path, ["a.txt"], Settings(doc_timeout_s=0.1))
    assert not out.articles and out.quarantine[0]["stage"] == "timeout"


def test_a_reader_that_hangs_is_stopped_after_its_good_records(tmp_path, monkeypatch):
    from newsclean.cleaners.types import RawDocument

    def hanging_reader(path, source, data, settings):
        yield RawDocument(source=f"{source}#1", data=ARTICLE.encode())
        _spin(5)
        yield RawDocument(source=f"{source}#2", data=b"never")

    monkeypatch.setitem(readers.READERS, ".hang", hanging_reader)
    (tmp_path / "x.hang").write_bytes(b"whatever")
    out = clean_sources(tmp_path, ["x.hang"], Settings(doc_timeout_s=0.2))
    assert [a["source"] for a in out.articles] == ["x.hang#1"]
    assert out.quarantine[0]["source"] == "x.hang" and out.quarantine[0]["stage"] == "timeout"
    assert "after 1 records" in out.quarantine[0]["error"]


def test_a_swallowed_timeout_fires_again_until_the_work_stops():
    """A timeout raised where Python ignores it (here: caught and dropped once) fires again."""
    swallowed = []
    t0 = time.perf_counter()
    with pytest.raises(DocumentTimeout):
        with time_limit(0.2):
            try:
                _spin(5)
            except DocumentTimeout:
                swallowed.append(time.perf_counter() - t0)
            _spin(5)
    assert swallowed and time.perf_counter() - t0 < 2


class _SpinsWhenCollected:
    def __del__(self):
        _spin(5)  # a finaliser still running when the limit expires: Python cannot raise there


class _FailsWhenCollected:
    def __del__(self):
        raise ValueError("a finaliser's own bug")


def _unraisable_reports(monkeypatch, seconds: float = 0.0) -> list:
    """sys.unraisablehook as a list of the reported exceptions' types, each report taking
    `seconds` (pytest's own hook formats a whole traceback: slow on a loaded machine)."""
    reports = []

    def hook(unraisable):
        _spin(seconds)
        reports.append(type(unraisable.exc_value))

    monkeypatch.setattr(sys, "unraisablehook", hook)
    return reports


def test_a_timeout_landing_in_a_finaliser_is_not_reported_and_fires_again(monkeypatch):
    reports = _unraisable_reports(monkeypatch)
    t0 = time.perf_counter()
    with pytest.raises(DocumentTimeout):
        with time_limit(0.2) as limit:
            obj = _SpinsWhenCollected()
            del obj  # the first tick lands in __del__, where Python hands it to the hook
            _spin(5)  # the next one stops the block
    assert limit.fired and reports == [] and time.perf_counter() - t0 < 2


def test_a_limit_does_not_cut_another_report_short(monkeypatch):
    """A finaliser's own error, reported while the limit expires: the report is written whole (a
    tick in the middle of pytest's hook made the hook fail, and with it the test that ran)."""
    reports = _unraisable_reports(monkeypatch, seconds=0.5)
    with pytest.raises(DocumentTimeout):
        with time_limit(0.2):
            _spin(0.1)
            obj = _FailsWhenCollected()
            del obj  # reported from 0.1 s to 0.6 s: the limit expires at 0.2 s, inside the report
            _spin(5)
    assert reports == [ValueError]


def test_the_thread_fallback_does_not_cut_a_report_short(monkeypatch):
    reports = _unraisable_reports(monkeypatch, seconds=0.5)
    seen = {}

    def work():
        try:
            with time_limit(0.2):
                _spin(0.1)
                obj = _FailsWhenCollected()
                del obj
                _spin(5)
        except DocumentTimeout:
            seen["stopped"] = True

    th = threading.Thread(target=work)
    th.start()
    th.join(10)
    assert seen == {"stopped": True} and reports == [ValueError]


def test_thread_fallback_fires_again_and_leaves_nothing_pending():
    seen = {}

    def work():
        t0 = time.perf_counter()
        try:
            with time_limit(0.2):
                try:
                    _spin(5)
                except DocumentTimeout:
                    seen["swallowed"] = True
                _spin(5)
        except DocumentTimeout:
            seen["stopped_after"] = time.perf_counter() - t0
        with time_limit(0.3) as limit:  # a quick block afterwards: no stray exception
            _spin(0.05)
        _spin(0.5)
        seen["clean_exit"] = not limit.fired

    th = threading.Thread(target=work)
    th.start()
    th.join(15)
    assert seen == {"swallowed": True, "stopped_after": seen.get("stopped_after"), "clean_exit": True}
    assert seen["stopped_after"] < 2


def test_limits_in_other_threads_share_one_watcher_thread(monkeypatch):
    """A limit per document step is entered thousands of times a batch: none may start a thread of
    its own (each start waits for the new thread to be scheduled under a busy GIL)."""
    started = []
    real_start = threading.Thread.start

    def counting_start(self):
        started.append(self.name)
        return real_start(self)

    monkeypatch.setattr(threading.Thread, "start", counting_start)
    seen = {}

    def work():
        for _ in range(2000):
            with time_limit(30) as limit:
                pass
        seen["mechanism"], seen["fired"] = limit.mechanism, limit.fired

    th = threading.Thread(target=work)
    th.start()
    th.join(30)
    assert seen == {"mechanism": "thread", "fired": False}
    assert started.count("newsclean-time-limit") <= 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_inside_a_limit_leaves_the_block_cleanly():
    """A worker thread that forks inside a limit (a library starting a process): the child has no
    watcher thread, so it leaves the block without touching the parent's, and its own limits work."""
    seen = {}

    def work():
        pid = None
        try:
            with time_limit(30):
                pid = os.fork()
        except BaseException:
            if pid == 0:
                os._exit(3)  # the child could not leave the block
            raise
        if pid == 0:
            code = 2  # the child's own limit did not fire
            try:
                with time_limit(0.2):
                    _spin(5)
            except DocumentTimeout:
                code = 0
            os._exit(code)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                seen["exit"] = os.waitstatus_to_exitcode(status)
                return
            time.sleep(0.05)
        os.kill(pid, 9)
        seen["exit"] = "hung"

    th = threading.Thread(target=work)
    th.start()
    th.join(30)
    assert seen == {"exit": 0}


def test_one_watcher_fires_each_thread_s_own_limit():
    """Two threads under limits at once: the short one is stopped, the long one is left alone."""
    seen = {}

    def work(name, seconds, spin):
        t0 = time.perf_counter()
        try:
            with time_limit(seconds) as limit:
                _spin(spin)
            seen[name] = ("finished", limit.fired)
        except DocumentTimeout:
            seen[name] = ("stopped", round(time.perf_counter() - t0, 1) < 1.5)

    threads = [threading.Thread(target=work, args=("short", 0.2, 5)), threading.Thread(target=work, args=("long", 20, 1))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(20)
    assert seen == {"short": ("stopped", True), "long": ("finished", False)}


@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", " \n\t\n\u00a0\n".encode()])
def test_an_empty_document_is_called_empty(tmp_path, content):
    from newsclean.cleaners.batch import clean_sources

    for name in ("empty.txt", "story"):  # named as text, and read by content
        (tmp_path / name).write_bytes(content)
        result = clean_sources(tmp_path, [name], Settings())
        assert [(q["source"], q["stage"]) for q in result.quarantine] == [(name, "decide")]
        assert result.quarantine[0]["error"].startswith("the document is empty")


@pytest.mark.prefect
def test_the_catalogue_through_the_cli_ends_quietly_with_every_source_accounted_for(tmp_path, prefect_server):
    """The whole catalogue as a user meets it: `newsclean run` over one RAW_DIR holding every case.
    The run's own steps beyond the cleaning (the manifest's hashing of every file, the corpus pass,
    the report's previews) must not wait on a FIFO, print raw bytes or a traceback, or lose a source."""
    import subprocess
    import sys

    raw = tmp_path / "raw"
    raw.mkdir()
    for i, case in enumerate(CASES):
        folder = raw / f"{i:02d}"
        folder.mkdir()
        case.make(folder)
    out = tmp_path / "out"
    proc = subprocess.run([str(Path(sys.executable).with_name("newsclean")), "run", str(raw), str(out)],
                          capture_output=True, timeout=300, env=prefect_server[1])
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, stderr[-3000:]
    assert "Traceback" not in stderr and "\ufffd" not in stderr and "WARNING" not in stderr, stderr[-3000:]
    articles = pq.read_table(out / "articles.parquet").to_pylist()
    quarantine = pq.read_table(out / "quarantine.parquet").to_pylist()
    ended = {r["source"].split("#")[0] for r in articles + quarantine}
    sources, skipped = discover(raw)
    assert set(sources) | {s for s, _ in skipped} <= ended
    fifo = next(r for r in quarantine if r["source"].endswith("pipe.txt"))
    assert "FIFO" in fifo["error"] and ACTIONABLE.search(fifo["error"])


def test_the_whole_page_body_takes_every_input_too(catalogue):
    """With html_body = "page" every page also gets its block table and the block model: each case
    still ends in an articles or quarantine row, and every row is valid."""
    raw = catalogue["raw"]
    sources, _ = discover(raw)
    result = validate_batch(clean_sources(raw, sources, Settings(html_body="page")))
    placed = [a["source"] for a in result.articles] + [q["source"] for q in result.quarantine]
    assert len(placed) == len(set(placed)), "a source is in two places"
    for case in CASES:
        prefix = catalogue["folders"][case.name].relative_to(raw).as_posix() + "/"
        if (case.needs and reader_for("x" + case.needs) is None) or case.between:  # (its file changed after the first run)
            continue
        if any(s.startswith(prefix) for s in [a["source"] for a in catalogue["result"].articles]
               + [q["source"] for q in catalogue["result"].quarantine if q["stage"] != "discover"]):
            assert any(s.startswith(prefix) for s in placed), f"{case.name}: the input went missing"
    assert failing_rows("articles", result.articles) == {}
    assert failing_rows("quarantine", result.quarantine) == {}
