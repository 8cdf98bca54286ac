"""The Python examples of docs/integrate.md run as they are against a real daemon."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, SDK, SdkDaemon

GUIDE = REPO / "docs" / "integrate.md"


def python_examples() -> list[str]:
    text = GUIDE.read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_guide_has_python_examples() -> None:
    assert len(python_examples()) >= 6


@pytest.mark.parametrize("example", python_examples(), ids=lambda e: e.splitlines()[0][:40])
def test_a_python_example_of_the_guide_runs(daemon: SdkDaemon, example: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", example],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(SDK / "src"), "ERRAND_API_KEY": daemon.key, "ERRAND_API_URL": daemon.url},
    )
    assert ran.returncode == 0, f"{example}\n---\n{ran.stdout}{ran.stderr}"
