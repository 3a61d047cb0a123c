"""Shared fixtures: the repository root and the `simt` command line the module is compared with."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def root(monkeypatch):
    """The repository root, as the working directory (paths in reports are relative to it)."""
    monkeypatch.chdir(ROOT)
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Runs the `simt` binary (SIMT_BIN, else `simt` on PATH) in the repository root; returns
    the completed process."""
    binary = os.environ.get("SIMT_BIN") or shutil.which("simt")
    if not binary:
        pytest.fail("set SIMT_BIN to the simt binary (scripts/python-test does)")

    def run(*args):
        return subprocess.run(
            [binary, *args], cwd=ROOT, capture_output=True, text=True, check=False
        )

    return run
