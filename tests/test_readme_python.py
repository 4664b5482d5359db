"""The README's "From Python" example runs as written and says what it prints."""
from __future__ import annotations

import contextlib
import io
import re

from tests.conftest import ROOT


def test_the_python_example_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## From Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    assert printed[0] == "Council backs bigger bus network"
    assert "Watch LIVE" not in printed[1] and printed[1].startswith("The city council voted")
    assert any("navigation" in line and "Watch LIVE" in line for line in printed)
    assert "2024-05-14 url" in printed
    assert printed[-1].startswith("decide no article body found")
