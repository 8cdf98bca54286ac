"""pyproject.toml builds a wheel with setuptools, offline, and the wheel installs and imports on its own."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import SDK


def test_the_package_builds_a_wheel_that_installs_and_imports(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(SDK, source, ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = (tmp_path / "dist").glob("errand-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"errand/__init__.py", "errand/_generated.py", "errand/_sync_client.py", "errand/py.typed"} <= set(names)
    assert not any(name.startswith("tests/") for name in names)

    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)],
        capture_output=True, text=True,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    probe = "import errand, sys; print(errand.__file__); print(errand.__version__); errand.Errand('ek_x').close()"
    imported = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(site)},
    )
    assert imported.returncode == 0, imported.stderr
    where, version = imported.stdout.split()
    assert Path(where).is_relative_to(site)
    assert version == wheel.name.split("-")[1]
