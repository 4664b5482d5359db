"""Generate a benchmark corpus of any size from the dev pages and the sample corpus.

    .venv/bin/python bench/generate_corpus.py OUT_DIR --docs 10000 [--seed 7]
        [--html-share 0] [--jsonl-share 0] [--mojibake-share 0.05] [--nbsp-share 0.10]
        [--crlf-share 0.10] [--legacy-share 0.0]

Sources: the full-page `text` of shared/devset/pages.jsonl.gz (461 pages), their original HTML
(shared/devset/html/*.html.gz) and the sample corpus in raw/ (*.txt).

Variation, all drawn from a random generator seeded per document (seed, index), so the output is
deterministic for a seed and a smaller corpus is a prefix of a larger one (doc 0..999 of the 10k
corpus are the 1k corpus):
- the first copy of every base page is the page as is; later copies re-mix it: body paragraphs
  (blocks of 12+ words) are swapped with body paragraphs of other pages of the same site, or,
  for a site with one page, dropped and permuted within the page. Chrome (menus, footers) stays
  where it was, as it does on a real site.
- a share of documents gets mojibake (UTF-8 read as cp1252: s.encode('utf-8').decode('cp1252',
  errors='replace')) in some paragraphs, no-break spaces instead of some spaces, CRLF line ends,
  or is saved in a legacy code page (cp1252 bytes).
- a share of documents is written as HTML (the page's original HTML, .html) or gathered into JSONL
  record files (.jsonl, 100 records each: {"id", "url", "title", "text"}). Both default to 0: the
  text-mode numbers are on .txt files only.

Every document is unique (doc_id is the SHA-256 of the bytes and a run rejects duplicates): a
64-bit hash of each document is kept and a re-roll is made on a collision.

Files go to OUT_DIR/NNNN/ folders of 1,000 documents, written as they are generated (streaming,
constant memory apart from the hash set). A manifest records the settings,
counts and bytes; it is written next to the folder (OUT_DIR.manifest.json), not inside it, so
that a run over OUT_DIR does not read it as input.
"""
from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import re
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlparse

import xxhash

ROOT = Path(__file__).resolve().parent.parent


def _load_shared_data():
    """This checkout's cleaners/shared_data.py, loaded by path (no `cleaners` import): check_identical.py
    --root puts a snapshot's cleaners/ first on sys.path, and the shared folder is beside this checkout."""
    spec = importlib.util.spec_from_file_location("newsclean_shared_data", ROOT / "cleaners" / "shared_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shared_data = _load_shared_data()
DEVSET = shared_data.devset_dir()
FOLDER_SIZE = 1000
RECORDS_PER_FILE = 100


@dataclass
class Shares:
    html: float = 0.0
    jsonl: float = 0.0
    mojibake: float = 0.05
    nbsp: float = 0.10
    crlf: float = 0.10
    legacy: float = 0.0


@dataclass
class Page:
    id: str
    url: str
    site: str
    title: str | None
    blocks: list[str]  # text split on blank lines
    html_path: Path | None


def _blocks(text: str) -> list[str]:
    return [b for b in re.split(r"\n\s*\n", text.replace("\r\n", "\n")) if b.strip()]


def load_pages(devset: Path = DEVSET, raw_dir: Path = ROOT / "raw") -> list[Page]:
    pages = []
    with gzip.open(devset / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            p = json.loads(line)
            html = devset / p["html"] if p.get("html") else None
            pages.append(Page(p["id"], p["url"], urlparse(p["url"]).netloc, p.get("title"), _blocks(p["text"]),
                              html if html and html.exists() else None))
    for path in sorted(Path(raw_dir).glob("*.txt")):
        pages.append(Page(f"raw/{path.name}", "", f"raw:{path.name}", None,
                          _blocks(path.read_text(encoding="utf-8", errors="replace")), None))
    return pages


def _is_body(block: str) -> bool:
    return len(block.split()) >= 12


def mojibake(text: str) -> str:
    """UTF-8 bytes read as cp1252, the most common mojibake in scraped English news."""
    return text.encode("utf-8").decode("cp1252", errors="replace")


class Generator:
    def __init__(self, seed: int = 7, shares: Shares | None = None, pages: list[Page] | None = None):
        self.seed = seed
        self.shares = shares or Shares()
        self.pages = pages if pages is not None else load_pages()
        self.by_site: dict[str, list[int]] = {}
        for i, p in enumerate(self.pages):
            self.by_site.setdefault(p.site, []).append(i)
        self.order = list(range(len(self.pages)))
        random.Random(f"{seed}:order").shuffle(self.order)
        self.html_pages = [i for i in self.order if self.pages[i].html_path is not None]
        self.seen: set[int] = set()
        self._html_cache: dict[int, str] = {}

    # -- text documents
    def remix(self, page: Page, rng: random.Random) -> list[str]:
        blocks = list(page.blocks)
        body = [i for i, b in enumerate(blocks) if _is_body(b)]
        if not body:
            rng.shuffle(blocks)
            return blocks
        mates = [j for j in self.by_site[page.site] if self.pages[j] is not page]
        if mates:
            pool = [b for j in mates for b in self.pages[j].blocks if _is_body(b)] + [blocks[i] for i in body]
            for i in body:
                if rng.random() < 0.5:
                    blocks[i] = rng.choice(pool)
        else:
            # One page on this site: drop up to a third of the body paragraphs and permute the rest.
            kept = [i for i in body if rng.random() >= 0.33] or body[:1]
            texts = [blocks[i] for i in kept]
            rng.shuffle(texts)
            dropped = set(body) - set(kept)
            out, it = [], iter(texts)
            for i, b in enumerate(blocks):
                if i in dropped:
                    continue
                out.append(next(it) if i in kept else b)
            blocks = out
        return blocks

    def text_document(self, index: int, rng: random.Random, attempt: int) -> tuple[str, dict]:
        base = self.order[index % len(self.order)]
        page = self.pages[base]
        copy = index // len(self.order)
        blocks = page.blocks if copy == 0 and attempt == 0 else self.remix(page, rng)
        tags = {"base": page.id}
        if attempt >= 10:
            # A page with few paragraphs has few remixes: vary its chrome too, as later crawls of a
            # site do (other teasers, other menu entries), by dropping some short blocks.
            blocks = [b for b in blocks if _is_body(b) or rng.random() >= 0.15] or blocks
        if attempt >= 30:
            # Last resort: a crawl stamp line, the kind of chrome the cleaner removes anyway.
            blocks = blocks + [f"Page cached {index % 24:02d}:{index // 24 % 60:02d} ({index})"]
            tags["stamp"] = True
        sh = self.shares
        if rng.random() < sh.mojibake:
            blocks = [mojibake(b) if rng.random() < 0.5 else b for b in blocks]
            tags["mojibake"] = True
        text = "\n\n".join(blocks)
        if rng.random() < sh.nbsp:
            text = re.sub(r"(?<=[.,]) (?=\w)|(?<=\d) (?=\w)", "\u00a0", text)
            tags["nbsp"] = True
        if rng.random() < sh.crlf:
            text = text.replace("\n", "\r\n")
            tags["crlf"] = True
        return text, tags

    def html_document(self, index: int, rng: random.Random, attempt: int) -> str:
        base = self.html_pages[index % len(self.html_pages)]
        if base not in self._html_cache:
            with gzip.open(self.pages[base].html_path, "rt", encoding="utf-8", errors="replace") as fh:
                self._html_cache[base] = fh.read()
        html = self._html_cache[base]
        copy = index // len(self.html_pages)
        if copy == 0 and attempt == 0:
            return html
        # A later crawl of the same page: same markup, a different cache-buster comment.
        return html.replace("</head>", f"<!-- crawl {copy}.{attempt} -->\n</head>", 1) if "</head>" in html \
            else f"<!-- crawl {copy}.{attempt} -->\n" + html

    def _unique(self, data: bytes) -> bool:
        h = xxhash.xxh3_64_intdigest(data)
        if h in self.seen:
            return False
        self.seen.add(h)
        return True

    def documents(self, n: int):
        """Yield (index, kind, relative path, bytes or record, tags) for documents 0..n-1."""
        sh = self.shares
        for i in range(n):
            pick = random.Random(f"{self.seed}:kind:{i}").random()
            kind = "html" if pick < sh.html and self.html_pages else ("jsonl" if pick < sh.html + sh.jsonl else "text")
            for attempt in range(50):
                rng = random.Random(f"{self.seed}:{i}:{attempt}")
                if kind == "html":
                    data = self.html_document(i, rng, attempt).encode("utf-8")
                    tags = {}
                else:
                    text, tags = self.text_document(i, rng, attempt)
                    if kind == "text" and rng.random() < sh.legacy:
                        data = text.encode("cp1252", errors="replace")
                        tags["legacy"] = True
                    else:
                        data = text.encode("utf-8")
                if self._unique(data):
                    break
            else:
                raise RuntimeError(f"could not make document {i} unique")
            yield i, kind, tags, data


def generate(out_dir: Path, n: int, seed: int = 7, shares: Shares | None = None, quiet: bool = False) -> dict:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    gen = Generator(seed, shares)
    counts = {"text": 0, "html": 0, "jsonl": 0, "mojibake": 0, "nbsp": 0, "crlf": 0, "legacy": 0}
    total_bytes, files = 0, 0
    records: list[bytes] = []
    record_file = 0
    started = time.perf_counter()

    def flush_records() -> None:
        nonlocal records, record_file, total_bytes, files
        if not records:
            return
        path = out_dir / "records" / f"records-{record_file:05d}.jsonl"
        path.parent.mkdir(exist_ok=True)
        blob = b"\n".join(records) + b"\n"
        path.write_bytes(blob)
        total_bytes += len(blob)
        files += 1
        record_file += 1
        records = []

    for i, kind, tags, data in gen.documents(n):
        counts[kind] += 1
        for k in ("mojibake", "nbsp", "crlf", "legacy"):
            counts[k] += bool(tags.get(k))
        if kind == "jsonl":
            page = gen.pages[gen.order[i % len(gen.order)]]
            records.append(json.dumps({"id": f"gen-{i:07d}", "url": page.url or None, "title": page.title,
                                       "text": data.decode("utf-8")}, ensure_ascii=False).encode("utf-8"))
            if len(records) >= RECORDS_PER_FILE:
                flush_records()
            continue
        folder = out_dir / f"{i // FOLDER_SIZE:04d}"
        if i % FOLDER_SIZE == 0 or not folder.exists():
            folder.mkdir(exist_ok=True)
        (folder / f"{i:07d}.{'html' if kind == 'html' else 'txt'}").write_bytes(data)
        total_bytes += len(data)
        files += 1
        if not quiet and (i + 1) % 10000 == 0:
            print(f"  {i + 1:,} documents, {total_bytes / 1e6:,.0f} MB, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    flush_records()
    manifest = {"docs": n, "seed": seed, "shares": asdict(gen.shares), "counts": counts, "files": files,
                "bytes": total_bytes, "mean_doc_bytes": round(total_bytes / max(n, 1))}
    manifest_path(out_dir).write_text(json.dumps(manifest, indent=2) + "\n")
    if not quiet:
        print(f"generated {n:,} documents ({total_bytes / 1e6:,.1f} MB) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return manifest


def manifest_path(out_dir: Path) -> Path:
    out_dir = Path(out_dir)
    return out_dir.with_name(out_dir.name + ".manifest.json")


def ensure_corpus(out_dir: Path, n: int, seed: int = 7, shares: Shares | None = None) -> dict:
    """Generate unless OUT_DIR already holds the same corpus (same size, seed and shares)."""
    shares = shares or Shares()
    m = manifest_path(out_dir)
    if m.exists():
        old = json.loads(m.read_text())
        if old.get("docs") == n and old.get("seed") == seed and old.get("shares") == asdict(shares):
            return old
    if Path(out_dir).exists():
        import shutil
        shutil.rmtree(out_dir)
    return generate(out_dir, n, seed, shares, quiet=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    for name, default in asdict(Shares()).items():
        ap.add_argument(f"--{name}-share", type=float, default=default)
    a = ap.parse_args(argv)
    shares = Shares(**{k: getattr(a, f"{k}_share") for k in asdict(Shares())})
    print(json.dumps(generate(a.out_dir, a.docs, a.seed, shares), indent=2))


if __name__ == "__main__":
    main()
