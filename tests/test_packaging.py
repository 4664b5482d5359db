"""The wheel is the whole product: built from the checkout, installed into a fresh virtual
environment, and run from elsewhere, it cleans the sample corpus into the expected output, from the
command line and from Python. The environment gets its dependencies from this one (no network): a
.pth file names this environment's site-packages, whose own .pth files (the editable install of
the checkout) are not processed, so the code that runs is the wheel's."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT, SEEDS_RAW
from tests.seedcheck import differences

pytestmark = [pytest.mark.slow, pytest.mark.prefect]

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# package -> folder of the checkout, as pyproject's package-dir maps them
PACKAGE_DIR = PYPROJECT["tool"]["setuptools"]["package-dir"]
# what a checkout holds besides the product: never copied, so a build from the copy sees what CI's clone has
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", ".prefect", "__pycache__", "*.egg-info", "build", "dist",
                                    ".pytest_cache", ".hypothesis", "dask-scratch-space", "artifacts")
# Python code that prints, per seed, what clean_text gives (run by the installed package)
CLEAN_SEEDS = """
import dataclasses, json, sys, pathlib, newsclean
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.txt")):
    a = newsclean.clean_text(path.read_text(encoding="utf-8"))
    print(json.dumps({"source": path.name, "title": a.title, "text": a.text, "outlet": a.outlet,
                      "outlet_domain": a.outlet_domain, "published": a.published and a.published.isoformat(),
                      "removed": [dataclasses.asdict(s) for s in a.removed]}))
"""


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_this_environment_can_build_the_wheel_without_isolation():
    for requirement in PYPROJECT["build-system"]["requires"]:
        name, op, minimum = re.fullmatch(r"([A-Za-z0-9._-]+)\s*(>=)\s*([\d.]+)", requirement).groups()
        assert version_tuple(version(name)) >= version_tuple(minimum), (
            f"{name} {version(name)} is older than the build requirement {requirement}: pip install -e '.[dev]'")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    shutil.rmtree(source / "clean", ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-w", str(tmp / "dist"), str(source)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (path,) = (tmp / "dist").glob("newsclean-*.whl")
    return path


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed and this environment's packages visible."""
    env = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    # the wheel first, while nothing else is visible there, so pip installs it rather than finding the editable one
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                           str(wheel)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "dependencies-of-the-test-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return env


def outside_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env.pop("VIRTUAL_ENV", None)
    return env


def run_in(venv: Path, args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=outside_env(), cwd=cwd)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def test_wheel_holds_the_package_with_its_data_and_nothing_else(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for package, folder in PACKAGE_DIR.items():
        prefix = package.replace(".", "/")
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                expected.add(f"{prefix}/{path.relative_to(ROOT / folder).as_posix()}")
    assert not expected - names, sorted(expected - names)
    assert "newsclean/cleaners/metadata/outlets.csv" in names
    model_files = {n for n in names if n.startswith("newsclean/cleaners/model/files/") and not n.endswith(".py")}
    assert {"newsclean/cleaners/model/files/model.json", "newsclean/cleaners/model/files/stage1.lgb.txt"} <= model_files
    assert "newsclean/cleaners/model/files/page_kind/page_kind.lgb.txt" in model_files  # a folder of its own
    assert "newsclean/cleaners/model/files/page_body/page_body.lgb.txt" in model_files  # html_body = "page"
    assert len(model_files) == len([p for p in (ROOT / "cleaners/model/files").rglob("*")
                                    if p.suffix not in (".py", ".pyc") and p.is_file()])
    top = {n.split("/")[0] for n in names}
    assert top == {"newsclean", f"newsclean-{PYPROJECT['project']['version']}.dist-info"}, top  # no tests/, bench/


def test_installed_package_is_the_wheel(venv, tmp_path):
    code = "import newsclean, newsclean.cleaners, newsclean.flows; print(newsclean.__file__); print(newsclean.cleaners.__file__); print(newsclean.__version__)"
    out = run_in(venv, [str(venv / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.split()
    assert Path(out[0]).resolve().is_relative_to(venv.resolve()), out[0]
    assert Path(out[1]).resolve().is_relative_to(venv.resolve()), out[1]
    assert out[2] == PYPROJECT["project"]["version"]
    cli = run_in(venv, [str(venv / "bin" / "newsclean"), "--version"], cwd=tmp_path).stdout
    assert cli == f"newsclean {PYPROJECT['project']['version']}\n"


def test_installed_cli_cleans_the_seeds_into_the_expected_output(venv, tmp_path, expected_seeds):
    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(SEEDS_RAW, raw)
    run_in(venv, [str(venv / "bin" / "newsclean"), "run", str(raw), str(out)], cwd=tmp_path)
    arts = pd.read_parquet(out / "articles.parquet")
    rem = pd.read_parquet(out / "removed.parquet")
    assert sorted(arts["source"]) == sorted(expected_seeds)
    for name, exp in expected_seeds.items():
        (row,) = arts[arts["source"] == name].to_dict("records")
        assert differences(row, rem[rem["doc_id"] == row["doc_id"]].to_dict("records"), exp) == [], name


def test_installed_python_api_cleans_the_seeds_into_the_expected_output(venv, tmp_path, expected_seeds):
    proc = run_in(venv, [str(venv / "bin" / "python"), "-c", CLEAN_SEEDS, str(SEEDS_RAW)], cwd=tmp_path)
    results = {r["source"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert sorted(results) == sorted(expected_seeds)
    for name, exp in expected_seeds.items():
        assert differences(results[name], results[name]["removed"], exp) == [], name
