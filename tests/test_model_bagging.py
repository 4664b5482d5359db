"""A seed bag averaged into one booster (newsclean.cleaners.model.bagging) scores the mean of its members; the
shipped model is one chain distilled from a bag, with merged title boosters."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from newsclean.cleaners.model import FILES, LineModel, bagging, compiled, member_name
from newsclean.cleaners.model import train as tr
from tests.test_model_compiled import _small_booster

lgb = pytest.importorskip("lightgbm")


def _rows(n: int = 300) -> np.ndarray:
    rng = np.random.default_rng(11)
    X = rng.normal(size=(n, 6)).astype(np.float32)
    X[::9, 2] = np.nan
    return X


@pytest.mark.parametrize("objective", ["binary", "lambdarank"])
@pytest.mark.parametrize("members", [2, 3, 4])
def test_merged_booster_scores_the_members_mean(tmp_path, objective, members):
    bag = [_small_booster(tmp_path, objective, seed=s)[0] for s in range(members)]
    X = _rows()
    raw = [b.predict(X, raw_score=True) for b in bag]
    assert not np.allclose(raw[0], raw[1])  # the seeds made different boosters
    merged = bagging.average_boosters(bag)
    assert merged.num_trees() == sum(b.num_trees() for b in bag)
    assert np.allclose(merged.predict(X, raw_score=True), np.mean(raw, axis=0), rtol=0, atol=1e-12)
    # saved and read back as any model file: the same scores, tree_sizes naming every tree
    path = tmp_path / "merged.lgb.txt"
    merged.save_model(str(path))
    text = path.read_text()
    assert len(re.search(r"^tree_sizes=(.*)$", text, re.M).group(1).split()) == merged.num_trees()
    again = lgb.Booster(model_file=str(path))
    assert np.array_equal(again.predict(X, raw_score=True), merged.predict(X, raw_score=True))


def test_merged_booster_compiles_bit_identical(tmp_path, monkeypatch):
    """lleaves reads the merged text model (it counts the trees from tree_sizes) and the compiled
    code passes the probe check against LightGBM."""
    pytest.importorskip("lleaves")
    monkeypatch.setenv(compiled.ENV_CACHE, str(tmp_path / "cache"))
    merged = bagging.average_boosters([_small_booster(tmp_path, seed=s)[0] for s in range(4)])
    path = tmp_path / "merged.lgb.txt"
    merged.save_model(str(path))
    booster = lgb.Booster(model_file=str(path))
    predict = compiled.predictor(lambda: booster, path)
    assert getattr(predict, "compiled", False)
    X = _rows()
    assert np.array_equal(predict(X), booster.predict(X, num_threads=1))


def test_one_booster_is_its_own_average(tmp_path):
    booster = _small_booster(tmp_path, seed=0)[0]
    assert bagging.average_boosters([booster]) is booster


def test_feature_importances_are_summed(tmp_path):
    bag = [_small_booster(tmp_path, seed=s)[0] for s in range(2)]
    merged = bagging.average_boosters(bag)
    assert np.array_equal(merged.feature_importance(), sum(b.feature_importance() for b in bag))


def test_bag_members_train_with_their_own_seeds():
    seeds = [p["seed"] for p in tr.bag_params(tr.PARAMS)]
    assert seeds[0] == tr.PARAMS["seed"] and len(set(seeds)) == tr.BAG


def test_packaged_model_is_one_student_chain_and_merged_title_boosters():
    """The shipped model holds one stage-1/stage-2 chain of STUDENT_ROUNDS trees (distilled from a
    bag of BAG chains, as model.json records) and title boosters of BAG members' trees."""
    meta = json.loads((FILES / "model.json").read_text())
    assert meta["teacher"] == {"bag": tr.BAG, "bag_seed_step": tr.BAG_SEED_STEP, "rounds": tr.ROUNDS,
                               "share": tr.TEACHER_SHARE}
    assert meta["student_last_line_weight"] == tr.STUDENT_LAST_LINE_WEIGHT
    assert not list(FILES.glob("stage*.*.lgb.txt"))  # no further members
    for stage in ("stage1", "stage2"):
        text = (FILES / f"{stage}.lgb.txt").read_text()
        assert len(re.findall(r"^Tree=\d+$", text, re.M)) == meta["rounds"][stage] == tr.STUDENT_ROUNDS[stage]
        assert "objective=cross_entropy" in text  # trained on the teacher's soft targets
    for name in ("title", "title_gate"):
        text = (FILES / f"{name}.lgb.txt").read_text()
        assert len(re.findall(r"^Tree=\d+$", text, re.M)) == meta["rounds"][name] * meta["title_bag"]


def _distillation_docs() -> list:
    """Four tiny training documents in two groups: two pages and two kind-(b) texts."""
    from newsclean.cleaners.corpus import DocContext

    body = ["The council voted on Tuesday to close the old bridge for repairs.",
            "Residents said the closure would add twenty minutes to their commute."]
    docs = []
    for i, kind in enumerate(["page", "clean", "page", "clean"]):
        lines = ["Home | World | Sport", *body, "Share this article"][: 4 - i % 2]
        y = np.array([1, 0, 0, 1][: len(lines)], dtype=np.int8)
        docs.append(tr.TrainDoc(lines, y, np.ones(len(lines)), None, None, f"group{i % 2}", kind,
                                ctx=DocContext.empty(len(lines))))
    return docs


def test_the_student_weighs_a_clean_texts_last_line_more_and_the_headline_reads_the_teachers_map(monkeypatch):
    """train_models: the student's rows weigh as the pages' rows, but the last line of each kind-(b)
    text STUDENT_LAST_LINE_WEIGHT times; the headline models are fitted on the teacher's mean
    out-of-fold stage 1, not on the student's."""
    from newsclean.cleaners.model import features as fx

    def out_of_fold(X, y, w, folds, inner_folds, rounds, names, params):
        if params["objective"] == "cross_entropy":  # the student's stage 1
            return np.full(len(y), 0.9)
        member = (params["seed"] - tr.PARAMS["seed"]) // tr.BAG_SEED_STEP
        return np.full(len(y), 0.1 * (member + 1))

    student_weights, title_maps = [], []
    monkeypatch.setattr(tr, "_out_of_fold", out_of_fold)
    monkeypatch.setattr(tr, "_fit", lambda X, y, w, rounds, names, params=None: student_weights.append(w))
    monkeypatch.setattr(tr, "_fit_title", lambda *a, **k: {})
    title_features = fx.title_features
    monkeypatch.setattr(fx, "title_features", lambda X2, p1, *a: title_maps.append(p1) or title_features(X2, p1, *a))
    docs = _distillation_docs()
    tr.train_models(docs, log=lambda *a: None)
    base = np.concatenate([tr._weights(d.lines, d.w) for d in docs])
    clean_last = np.cumsum([len(d.lines) for d in docs])[[1, 3]] - 1
    expected = base.copy()
    expected[clean_last] *= tr.STUDENT_LAST_LINE_WEIGHT
    assert tr.STUDENT_LAST_LINE_WEIGHT > 1 and len(student_weights) == 2  # the student's stage 1 and stage 2
    for w in student_weights:
        assert np.array_equal(w, expected)
    teacher_mean = np.mean([0.1 * (i + 1) for i in range(tr.BAG)])
    assert len(title_maps) == len(docs) and all(np.allclose(p1, teacher_mean) for p1 in title_maps)


def _noise_chain(seed: int) -> dict:
    """A stage 1 and a stage 2 booster of the model's feature widths, fitted on noise."""
    from newsclean.cleaners.model import features as fx

    rng = np.random.default_rng(seed)
    params = dict(objective="binary", verbose=-1, seed=seed, num_leaves=4, min_data_in_leaf=5, deterministic=True)
    y = rng.integers(0, 2, 400)
    return {stage: lgb.train(params, lgb.Dataset(rng.normal(size=(400, len(names))), y), num_boost_round=5)
            for stage, names in (("stage1", fx.FEATURE_NAMES), ("stage2", fx.STAGE2_NAMES))}


def test_a_bag_scores_the_mean_of_its_chains():
    """A model folder of several chains (stage1, stage2; stage1.1, stage2.1) scores the mean of what
    each member's stage 1 -> stage 2 chain gives alone."""
    chains = [_noise_chain(seed) for seed in (1, 2)]
    bag = LineModel({**{member_name(stage, i): b for i, c in enumerate(chains) for stage, b in c.items()}, "lexicon": None})
    lines = ["Home | World | Sport", "Council votes to close the old bridge",
             "The city council voted on Tuesday to close the old bridge to traffic for repairs.",
             "Residents said the closure would add twenty minutes to their commute.",
             "Share this article", "Sign up for our newsletter"]
    alone = [LineModel({**c, "lexicon": None}).debris_proba(lines) for c in chains]
    assert not np.allclose(alone[0], alone[1])
    assert np.allclose(bag.debris_proba(lines), np.mean(alone, axis=0), rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["stage3", "title.1", "stage1.x"])
def test_a_model_folder_with_an_unknown_booster_is_refused(tmp_path, name):
    booster = _small_booster(tmp_path)[0]
    with pytest.raises(ValueError, match="unknown model part"):
        LineModel({"stage1": booster, "stage2": booster, name: booster, "lexicon": None})


def test_multiclass_members_with_one_leaf_trees_merge():
    """A multiclass bag (the page-kind model's) merges too, one-leaf trees (no internal values:
    nothing left to split, here a class no row has) included."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = (X[:, 1] > 0).astype(int)  # classes 0 and 1 only: class 2's trees are single leaves
    params = dict(objective="multiclass", num_class=3, num_leaves=4, min_data_in_leaf=5, verbose=-1,
                  num_threads=1, bagging_fraction=0.8, bagging_freq=1, deterministic=True, force_row_wise=True)
    bag = [lgb.train(dict(params, seed=s), lgb.Dataset(X, label=y), num_boost_round=60) for s in (1, 2)]
    assert any("num_leaves=1\n" in b.model_to_string() for b in bag)
    merged = bagging.average_boosters(bag)
    raw = np.mean([b.predict(X, raw_score=True) for b in bag], axis=0)
    assert np.allclose(merged.predict(X, raw_score=True), raw, rtol=0, atol=1e-12)


def test_first_trees_of_a_bag_score_its_first_member(tmp_path, monkeypatch):
    """bagging.first_trees cuts a merged bag down to its first member (leaves as scaled in the
    bag), and compiled.first_trees_predictor scores it compiled, or with LightGBM without a file."""
    monkeypatch.setenv(compiled.ENV_CACHE, str(tmp_path / "cache"))
    bag = [_small_booster(tmp_path, "lambdarank", seed=s)[0] for s in range(4)]
    merged = bagging.average_boosters(bag)
    path = tmp_path / "merged.lgb.txt"
    merged.save_model(str(path))
    X = _rows()
    n = bag[0].num_trees()
    want = merged.predict(X, num_iteration=n, num_threads=1)
    assert np.allclose(want, bag[0].predict(X, raw_score=True) / 4, rtol=0, atol=1e-12)
    head = lgb.Booster(model_str=bagging.first_trees(path.read_text(), n))
    assert head.num_trees() == n and np.array_equal(head.predict(X, num_threads=1), want)
    assert np.array_equal(compiled.first_trees_predictor(lambda: merged, None, 4)(X), want)
    if compiled.enabled():
        pytest.importorskip("lleaves")
        first = compiled.first_trees_predictor(lambda: merged, path, 4)
        assert getattr(first, "compiled", False) and np.array_equal(first(X), want)
    with pytest.raises(ValueError):
        bagging.first_trees(path.read_text(), merged.num_trees() + 1)


def test_the_headline_screen_is_the_title_bags_first_member_whatever_the_chains(tmp_path):
    """A model of one chain whose headline ranker is a merged bag (model.json's title_bag) screens
    with that bag's first member; without title_bag, one chain means one ranker and no screen."""
    title = bagging.average_boosters([_small_booster(tmp_path, "lambdarank", seed=s)[0] for s in range(4)])
    parts = {**_noise_chain(1), "title": title, "lexicon": None}
    X = _rows()
    first = LineModel(parts, {"title_bag": 4})._title_first
    assert first is not None
    assert np.array_equal(first(X), title.predict(X, num_iteration=title.num_trees() // 4, num_threads=1))
    assert LineModel(parts, {})._title_first is None
