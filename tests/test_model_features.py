"""Line features: shape, patterns, position, neighbours, topic fit, corpus repetition."""
import numpy as np

from newsclean.cleaners.corpus import CorpusStats
from newsclean.cleaners.model import features as fx

BODY = [
    "The river authority said on Monday that the flood barrier would be raised before the storm arrives.",
    "Engineers have tested the barrier twice this year, and both tests went as planned, the authority said.",
    "Residents near the river were told to move cars away from the embankment by Tuesday evening.",
]
DOC = ["Home", "News", "Sport", "Flood barrier to be raised before storm"] + BODY[:2] + ["What engineers found"] + BODY[2:] + [
    "Royal couple to visit Canada next spring", "Contact us: news@example.com", "© 2024 Example Media. All rights reserved.",
    "https://example.com/privacy"]


def col(X, name):
    return X[:, fx.FEATURE_NAMES.index(name)]


def test_shape_and_pattern_features():
    X = fx.doc_features(DOC)
    assert X.shape == (len(DOC), len(fx.FEATURE_NAMES)) and X.dtype == np.float32
    assert not np.isnan(X).any()
    assert col(X, "ends_sent")[4] == 1 and col(X, "ends_sent")[0] == 0
    assert col(X, "n_words")[0] == 1 and col(X, "n_words")[4] == len(BODY[0].split())
    assert col(X, "email")[DOC.index("Contact us: news@example.com")] >= 1
    assert col(X, "copyright")[DOC.index("© 2024 Example Media. All rights reserved.")] >= 1
    assert col(X, "url")[len(DOC) - 1] >= 1
    assert col(X, "date")[DOC.index("© 2024 Example Media. All rights reserved.")] >= 1
    assert col(X, "stop_ratio")[4] > 0.2 and col(X, "stop_ratio")[2] == 0


def test_position_and_neighbours():
    X = fx.doc_features(DOC)
    assert col(X, "rel_pos")[0] == 0 and col(X, "rel_pos")[-1] == 1
    # the subheading sits between two textual lines
    i = DOC.index("What engineers found")
    assert col(X, "inside_text_span")[i] == 1 and col(X, "inside_text_span")[0] == 0
    assert col(X, "n_words@-1")[i] == col(X, "n_words")[i - 1]
    assert col(X, "n_words@+1")[i] == col(X, "n_words")[i + 1]
    assert col(X, "n_words@-1")[0] == -1  # beyond the document


def test_topic_fit_separates_unrelated_headline():
    X = fx.doc_features(DOC)
    fit = col(X, "fit_share")
    assert fit[DOC.index("What engineers found")] > fit[DOC.index("Royal couple to visit Canada next spring")]
    assert fit[3] > 0.5  # the headline's words recur in the body


def test_corpus_repetition_features():
    docs = [(["Home", "News", f"Story number {i} is about {w}.", "Subscribe now"], "example.com")
            for i, w in enumerate(["rivers", "bridges", "trains", "bread"])]
    stats = CorpusStats.build(docs)
    X = fx.doc_features(docs[0][0], stats.doc_context(docs[0][0], "example.com"))
    assert col(X, "df_frac")[0] == 1.0 and col(X, "df_site_frac")[3] == 1.0
    # digits fold to 0, so "Story number N" lines collide: check a line with no digits instead
    assert col(X, "df_log")[1] > 0


def test_empty_and_single_line_documents():
    assert fx.doc_features([]).shape == (0, len(fx.FEATURE_NAMES))
    X = fx.doc_features(["Just one line."])
    assert X.shape[0] == 1 and not np.isnan(X).any()
    X2 = fx.stage2_features(X, np.array([0.3]))
    assert X2.shape == (1, len(fx.STAGE2_NAMES))
    T = fx.title_features(X2, np.array([0.3]), ["Just one line."], "https://x.org/just-one-line")
    assert T.shape == (1, len(fx.TITLE_NAMES))


def test_unicode_and_astral_characters():
    X = fx.doc_features(["Ça marche très bien 🎉", "東京都の天気は晴れです。", "\u200b"])
    assert not np.isnan(X).any()
    assert col(X, "other_letter_ratio")[1] > 0.5


def test_title_meta_distances_point_at_the_byline_under_the_headline():
    lines = ["Home", "Top 10 Shoe Companies in the World", "Our Blogs",
             "Top 10 Shoe Companies in the World You Should Know About", "By Anna Berg", "March 3, 2025", *BODY]
    X1 = fx.doc_features(lines)
    p = np.array([0.99, 0.9, 0.99, 0.9, 0.95, 0.95] + [0.05] * len(BODY))
    XT = fx.title_features(fx.stage2_features(X1, p), p, lines)
    below = XT[:, fx.TITLE_NAMES.index("meta_below")]
    above = XT[:, fx.TITLE_NAMES.index("meta_above")]
    assert below[3] == 1 and below[1] == 3  # the headline right above its byline; the breadcrumb's item further
    assert above[6] == 1 and above[3] == fx.META_FAR  # the first paragraph under the date; none above the headline
    assert below[-1] == fx.META_FAR  # no byline below the last paragraph
    no_meta = fx.title_features(fx.stage2_features(fx.doc_features(BODY), p[-3:]), p[-3:], BODY)
    assert (no_meta[:, fx.TITLE_NAMES.index("meta_below")] == fx.META_FAR).all()


PAGE = ["Home / News / Flood barrier to be raised before storm", "Flood barrier to be raised before storm | Example News",
        "Flood barrier to be raised before storm", "By Anna Berg", "March 3, 2025", *BODY, "Related",
        "Storm before raised be to barrier flood", "Royal couple to visit Canada next spring", "Related",
        "Royal couple to visit Canada next spring photo", "Share this story on Facebook"]


def _recurrence_plain(lines, cand):
    """_recurrence spelled out: every window of each candidate's length in every longer line of
    3-60 tokens, compared as word multisets."""
    from collections import Counter

    toks = [fx.line_tokens(s) for s in lines]
    n = len(lines)
    embedded, share = np.zeros(n), np.zeros(n)
    for c in range(n):
        k = len(toks[c])
        if not cand[c] or k < 2:
            continue
        words = Counter(toks[c])
        for host, t in enumerate(toks):
            if not 3 <= len(t) <= 60 or len(t) <= k:
                continue
            for s in range(len(t) - k + 1):
                if Counter(t[s:s + k]) == words:
                    embedded[c] += 1
                    share[host] = max(share[host], k / len(t))
    return embedded, share > 0, share


def _recurrence_of(docs, cands):
    """_recurrence_many over `docs` as one batch."""
    doc = np.repeat(np.arange(len(docs)), [len(d) for d in docs])
    return fx._recurrence_many([fx._line_tokens(d) for d in docs], doc, np.concatenate(cands))


def _assert_batch_is_each_plain(docs, cands):
    """_recurrence_many over `docs` as one batch gives each document _recurrence_plain's values of
    its own lines; returns the batch's values."""
    got = _recurrence_of(docs, cands)
    at = 0
    for lines, cand in zip(docs, cands):
        for a, b in zip(got, _recurrence_plain(lines, cand)):
            assert np.array_equal(a[at:at + len(lines)], b)
        at += len(lines)
    return got


def test_recurrence_counts_each_candidate_in_longer_lines_as_word_multisets():
    rng = np.random.default_rng(7)
    vocab = ["storm", "barrier", "flood", "the", "raised", "news", "home", "river"]
    docs = [PAGE]
    for _ in range(40):  # a small vocabulary: many windows of every length recur
        docs.append([" ".join(rng.choice(vocab, size=int(rng.integers(1, 12)))) for _ in range(int(rng.integers(1, 30)))])
    cands = [rng.random(len(lines)) < 0.7 for lines in docs]
    # one batch of all the documents: each counts the windows of its own lines only (the same
    # words recur in every document, and never match across them)
    _assert_batch_is_each_plain(docs, cands)
    emb, holds, share = _recurrence_of([PAGE], [np.ones(len(PAGE), dtype=bool)])
    # the headline in the breadcrumb and the "| Outlet" line, its words in any order; a line of
    # the same length is no host
    assert emb[2] == 2 and emb[PAGE.index("Storm before raised be to barrier flood")] == 2
    assert holds[0] and share[1] == 7 / 9 and not holds[2]


def test_recurrence_of_repeated_candidates_is_each_copys_own():
    """Copies of a candidate (the same words, the same document) are looked at once and each gets
    the group's count: the same values as the plain count, in documents that share the copies'
    words, with the copies' words in another order too."""
    menu = "Home News Sport"
    docs = [[menu, "Storm barrier raised", menu, "Home News Sport Weather Travel", "Sport News Home",
             "Barrier raised before the storm", menu, "Storm barrier raised"],
            [menu, "News Sport Home and Weather", menu]]
    cands = [np.ones(len(d), dtype=bool) for d in docs]
    cands[0][4] = False  # a copy's words in another order, not a candidate
    got = _assert_batch_is_each_plain(docs, cands)
    assert got[0][0] == got[0][2] == got[0][6] == 1 and got[0][8] == got[0][10] == 1


def test_recurrence_work_does_not_grow_with_the_square_of_a_repeated_line():
    """A long text repeating its menu line thousands of times (a 27 MB scrape of 400,000 lines once
    asked for a 132 GiB array here and was quarantined): the copies are one candidate, so the
    count's memory stays near the size of the page."""
    import tracemalloc

    copies = 6000
    page = ["Home News Sport", "Flood barrier to be raised before storm"] * copies
    tracemalloc.start()
    try:
        emb, _, _ = _recurrence_of([page], [np.ones(len(page), dtype=bool)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert emb[0] == 0 and emb[1] == 0  # no longer line holds either
    assert peak < 20 * 2 ** 20, f"{peak / 2 ** 20:.0f} MiB for {len(page)} lines"


def test_title_features_of_a_batch_are_each_documents_own():
    """title_features_many over documents one after another gives each row its own document's
    title_features (first body line, ranks, medians, best candidates, recurrence, slug), whatever
    its neighbours in the batch, an empty document included."""
    rng = np.random.default_rng(3)
    other = [line for line in reversed(PAGE)][:9]
    docs = [PAGE, [], other, PAGE]
    urls = [None, None, "https://example.com/news/flood-barrier-raised-storm", "https://example.com/a/royal-couple-canada"]
    ps = [rng.random(len(d)) for d in docs]
    X2s = [fx.stage2_features(fx.doc_features(d), p) if d else np.zeros((0, len(fx.STAGE2_NAMES)), dtype=np.float32)
           for d, p in zip(docs, ps)]
    offsets = np.concatenate([[0], np.cumsum([len(d) for d in docs])]).astype(np.int64)
    X2, p = np.vstack(X2s), np.concatenate(ps)
    rows = np.flatnonzero(rng.random(len(p)) < 0.8)
    got = fx.title_features_many(X2, p, offsets, [s for d in docs for s in d], urls,
                                 [fx._line_tokens(d) for d in docs], rows)
    want = [fx.title_features(X, q, d, u, rows=rows[(rows >= a) & (rows < b)] - a)
            for X, q, d, u, a, b in zip(X2s, ps, docs, urls, offsets[:-1], offsets[1:]) if d]
    assert np.array_equal(got, np.vstack(want))


def test_title_features_of_some_rows_are_those_rows_of_the_whole_matrix():
    p = np.array([0.99, 0.95, 0.9, 0.9, 0.95, 0.05, 0.05, 0.1, 0.9, 0.97, 0.9, 0.9, 0.95, 0.99])
    X2 = fx.stage2_features(fx.doc_features(PAGE), p)
    for url in (None, "https://example.com/news/flood-barrier-raised-storm"):
        full = fx.title_features(X2, p, PAGE, url)
        for rows in (np.flatnonzero(fx.title_candidates(X2, PAGE)), np.array([2, 13]), np.array([], dtype=np.intp)):
            some = fx.title_features(X2, p, PAGE, url, rows=rows)
            assert some.dtype == full.dtype and np.array_equal(some, full[rows])


def test_paragraphs_among_some_lines_reads_only_those():
    lede = ("The river authority said on Monday that the barrier would be raised. Engineers have tested it twice "
            "this year and both tests went as planned, the authority said")
    lines = [lede, "Flood barrier to be raised before storm", lede]
    X = fx.doc_features(lines)
    assert fx.paragraphs(X, lines).tolist() == [True, False, True]
    assert fx.paragraphs(X, lines, among=np.array([False, True, True])).tolist() == [False, False, True]


def test_numbered_items_whose_numbers_lost_their_separator_are_no_headline_candidates():
    toc = ["1Why consider starting an LLC in New York", "1.1Protection of personal assets", "2Possible disadvantages"]
    lines = ["How to Start an LLC in New York", *toc, *BODY]
    X = fx.doc_features(lines)
    cand = fx.title_candidates(X, lines)
    assert cand[0] and not cand[1:4].any()
    # the same numbering, other scripts and affiliations: "74Tauchbasen", "2Department of …"
    assert fx.numbered_items(["74Tauchbasen", "1Tauchsafaris", "2Department of Physics"]).all()


def test_numbered_item_look_alikes_stay_candidates():
    looks = [
        ["4Runner Trail Edition review", *BODY],  # one such line: a name that starts with a number
        ["4Runner Trail Edition review", "4Runner towing capacity", *BODY],  # the same number again
        ["3D printing for beginners", "5G towers explained", "2 Broke Girls returns"],  # no capitalised word glued on
        ["10k steps a day", "2nd place for the home team", "1st Battalion returns"],  # lower case after the number
        ["2.4GHz or 5GHz: which band", "3.5mm jack is back", "1.5TB drives compared"],  # units
    ]
    for lines in looks:
        assert not fx.numbered_items(lines).any(), lines
    # documents are judged apart: one numbered line in each of two documents is no list
    two = ["1Why this matters", "Body text", "2Department of Physics", "More text"]
    assert not fx.numbered_items(two, np.array([0, 2, 4])).any()
    assert fx.numbered_items(two).sum() == 2


def test_lead_in_lines_and_dated_entries_are_no_headline_candidates():
    lines = ["Erik Demaine's Folding and Unfolding:", "2021-08-09 Emphasizing non-requirements for tool choice",
             "2021-08-09T10:00 Release notes", "The Fold-and-Cut Problem"]
    cand = fx.title_candidates(fx.doc_features(lines), lines)
    assert cand.tolist() == [False, False, False, True]


def test_lead_in_and_dated_look_alikes_stay_candidates():
    looks = ["Breaking: council approves the bridge", "2024-25 season preview: five questions", "2021 in review",
             "What changed on 2021-08-09?", "Ticket prices: how much is too much?", "10:30 briefing"]
    assert fx.title_candidates(fx.doc_features(looks), looks).all()
