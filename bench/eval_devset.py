"""Evaluate the cleaner on the development pages: see cleaners/model/evaluate.py.

    .venv/bin/python bench/eval_devset.py [--pred PRED.jsonl] [--cv 2] [--mode pipeline|model]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from newsclean.cleaners.model.evaluate import clean_page, fold_of, main, print_score, score  # noqa: E402,F401

if __name__ == "__main__":
    raise SystemExit(main())
