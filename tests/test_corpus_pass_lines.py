"""The corpus pass normalises its documents' lines as a cleaning batch does: a group of documents at
a time, with one look at all their lines (newsclean.cleaners.lines.line_forms_many through the
steps engine), and hashes exactly the lines the cleaner will see in each (document_lines)."""
from __future__ import annotations

import json

import numpy as np

from newsclean.cleaners import corpus_context, lines as lines_module
from newsclean.cleaners.corpus import line_hashes
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument

# texts whose lines take every route through normalisation: ASCII, curly quotes and accents (the
# columnar scans), mojibake (ftfy line by line), an entity, a no-break space, Markdown
TEXTS = {
    "ascii.txt": "Council approves the budget\n\nThe council voted on Tuesday to approve the budget.\n",
    "quotes.txt": "“Café owners” say the plan is ‘fair’\n\nThe owners of the café on Rue Émile met on Monday.\n",
    "mojibake.txt": "Mayor visits the cafÃ©\n\nThe mayor said itâ€™s a good day for the town.\n",
    "entity.txt": "Fish &amp; chips shop reopens\n\nThe shop\u00a0reopened on Friday after repairs.\n",
    "markdown.md.txt": "# A heading\n\n* one item\n* another item with [a link](https://example.com/a)\n",
}


def _corpus(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    for name, text in TEXTS.items():
        (raw / name).write_text(text, encoding="utf-8")
    (raw / "latin1.txt").write_bytes("Le café de la gare ferme ses portes.\n".encode("latin-1"))
    records = [{"text": "Überraschung in der Stadt\n\nDie Stadt hat am Montag gewählt.", "url": "https://example.de/a"},
               {"text": "The same report\n\nIt’s here again.", "url": "https://example.com/b"}]
    (raw / "records.jsonl").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\nnot json\n",
                                       encoding="utf-8")
    return raw, sorted(p.name for p in raw.iterdir())


def test_the_corpus_pass_hashes_each_documents_cleaner_lines(tmp_path):
    cfg = Settings()
    raw, sources = _corpus(tmp_path)
    part = corpus_context.hash_slice(raw, sources, cfg)
    expected, per_file = [], []
    for source in sources:
        items, readable = corpus_context.source_items(raw, source, cfg)
        assert readable
        per_file.append(len(items))
        expected += [(source, line_hashes(corpus_context.document_lines(doc, cfg)), key) for doc, key in items]
    got = list(part.documents())
    assert [s for s, _, _ in got] == [s for s, _, _ in expected]
    assert all(np.array_equal(a, b) for (_, a, _), (_, b, _) in zip(got, expected))
    assert part.file_docs.tolist() == per_file and sum(per_file) == len(got) == len(TEXTS) + 3


def test_the_corpus_pass_looks_at_a_groups_lines_together(tmp_path, monkeypatch):
    cfg = Settings()
    raw, sources = _corpus(tmp_path)
    calls: list[int] = []
    real = lines_module.line_forms_many

    def counting(texts, keep_curly_quotes):
        calls.append(len(texts))
        return real(texts, keep_curly_quotes)

    monkeypatch.setattr(lines_module, "line_forms_many", counting)
    corpus_context.hash_slice(raw, sources, cfg)
    # every document of the slice (fewer than a group) in one call
    assert calls == [len(TEXTS) + 3]
    calls.clear()
    monkeypatch.setattr(corpus_context, "LINES_GROUP", 2)
    corpus_context.hash_slice(raw, sources, cfg)
    assert len(calls) > 1 and sum(calls) == len(TEXTS) + 3


def test_a_document_that_fails_to_decode_is_left_out_and_the_rest_are_hashed(tmp_path, monkeypatch):
    cfg = Settings()
    raw, sources = _corpus(tmp_path)
    real = corpus_context._document_lines_steps

    def failing(doc: RawDocument, settings):
        if doc.source == "quotes.txt":
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "broken")
        return (yield from real(doc, settings))

    monkeypatch.setattr(corpus_context, "_document_lines_steps", failing)
    part = corpus_context.hash_slice(raw, sources, cfg)
    assert "quotes.txt" not in part.sources.tolist()
    assert len(part.sources) == len(TEXTS) + 2
    assert part.file_docs[sources.index("quotes.txt")] == 0
