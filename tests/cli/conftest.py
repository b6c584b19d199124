"""Running the `python -m spacy_nseen` command line in a directory outside the repository."""
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

import spacy_nseen

# the directory holding the spacy_nseen under test (installed, or this work tree)
PACKAGE_ROOT = Path(spacy_nseen.__file__).resolve().parent.parent


@pytest.fixture
def run_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess]:
    """Run `python -m spacy_nseen ARGS` in tmp_path (not the repository), one thread, no terminal."""

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(PACKAGE_ROOT)}
        result = subprocess.run([sys.executable, "-m", "spacy_nseen", *args], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=600)
        if check:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    return run
