"""One LightGBM booster that scores the average of several: a seed bag in a single model file.

    merged = average_boosters([b1, b2, b3, b4])   # merged.predict(X, raw_score=True) == mean of the raw scores

Boosters trained on the same rows with different seeds (LightGBM's bagging and feature sampling)
disagree on a few pages' doubtful lines; their average is steadier than any one of them. A
booster's raw score is the sum of its trees' leaf values, so the average of N boosters is one
booster holding all their trees with every leaf value divided by N. LightGBM has no call that
merges boosters, so this edits the text model format LightGBM itself writes (and lleaves reads):
the trees are renumbered, their leaf and internal values scaled, `tree_sizes` recomputed and the
feature importances summed. With N a power of two the scaling is exact. Nothing but the text
format is touched; the result loads like any saved model and runs no code.

newsclean.cleaners.model.train merges the bag's headline ranker and gate this way (one file, one compiled
function each). Their trees stay in the members' order, so the first member is the model's first
trees (first_trees: the headline ranker's screen, newsclean.cleaners.model.LineModel). The line stages
cannot be merged: each member's stage 2 reads its own stage 1's probabilities, so a bag of chains is
scored chain by chain and averaged (newsclean.cleaners.model.LineModel); the packaged model ships one
chain distilled from the bag instead (newsclean.cleaners.model.train).
"""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # LightGBM is imported where a booster is built: first_trees needs none
    import lightgbm as lgb

_TREE = re.compile(r"^Tree=\d+\n", re.M)
_END = "end of trees\n"
_SCALED = ("leaf_value=", "internal_value=")


def _split(model: str) -> tuple[str, list[str], str]:
    """A text model's header (up to its first tree), its tree blocks and what follows them."""
    starts = [m.start() for m in _TREE.finditer(model)]
    end = model.index(_END, starts[-1])
    blocks = [model[a:b] for a, b in zip(starts, starts[1:] + [end])]
    return model[:starts[0]], blocks, model[end:]


def _scaled_tree(block: str, number: int, factor: float) -> str:
    lines = block.split("\n")
    lines[0] = f"Tree={number}"
    for i, line in enumerate(lines):
        if line.startswith(_SCALED) and not line.endswith("="):  # a one-leaf tree has no internal values
            key, values = line.split("=", 1)
            lines[i] = key + "=" + " ".join(repr(float(v) * factor) for v in values.split(" "))
    return "\n".join(lines)


def _summed_importances(tails: list[str]) -> str:
    """The members' `feature_importances:` sections summed (split counts), highest first."""
    counts: Counter = Counter()
    for tail in tails:
        section = tail.split("feature_importances:\n", 1)[1].split("\n\n", 1)[0]
        for line in filter(None, section.split("\n")):
            name, n = line.rsplit("=", 1)
            counts[name] += int(n)
    # LightGBM's order: by count, descending; ties keep the feature order (Counter keeps insertion)
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return "".join(f"{name}={n}\n" for name, n in ranked)


def average_boosters(boosters: list[lgb.Booster]) -> lgb.Booster:
    """One booster whose raw score is the mean of the boosters' raw scores (same features and
    objective). A single booster is returned as it is."""
    import lightgbm as lgb

    if len(boosters) == 1:
        return boosters[0]
    parts = [_split(b.model_to_string(num_iteration=-1)) for b in boosters]
    header, _, tail = parts[0]
    factor = 1.0 / len(boosters)
    trees = [_scaled_tree(block, i, factor)
             for i, block in enumerate(block for _, blocks, _ in parts for block in blocks)]
    sizes = " ".join(str(len(t.encode("utf-8"))) for t in trees)
    header = re.sub(r"^tree_sizes=.*$", "tree_sizes=" + sizes, header, count=1, flags=re.M)
    before, after = tail.split("feature_importances:\n", 1)
    after = after.split("\n\n", 1)[1]
    tail = before + "feature_importances:\n" + _summed_importances([t for _, _, t in parts]) + "\n" + after
    return lgb.Booster(model_str=header + "".join(trees) + tail)


def first_trees(model: str, trees: int) -> str:
    """The text model of `model`'s first `trees` trees (of a merged bag: its first members, each
    leaf value as scaled in the bag), in the format LightGBM writes and lleaves reads."""
    header, blocks, tail = _split(model)
    if not 0 < trees <= len(blocks):
        raise ValueError(f"{trees} trees asked of a model of {len(blocks)}")
    blocks = blocks[:trees]
    sizes = " ".join(str(len(t.encode("utf-8"))) for t in blocks)
    header = re.sub(r"^tree_sizes=.*$", "tree_sizes=" + sizes, header, count=1, flags=re.M)
    return header + "".join(blocks) + tail
