"""The README's notebook example runs and prints what the README says it prints."""

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_prints_what_it_shows(root):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## From Python and notebooks", 1)[1]
    code, shown = re.search(r"```python\n(.*?)```\s*```text\n(.*?)```", section, re.S).groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
