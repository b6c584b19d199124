"""Streamed, atomic downloads with checksums, and the offline mirror.

A download streams into `<dest>.part` in the destination directory and is
renamed to `dest` only when it is complete and its checksum (if known) matches,
so an interrupted transfer never leaves a file that looks finished. When a
mirror directory is given (`--mirror` or the `NSEEN_MIRROR` environment
variable) files are copied from there instead, equally atomically.
"""
import hashlib
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional, Union

from tqdm import tqdm

from training.common.data_errors import DataFileError, DownloadError
from training.common.mirror import MIRROR_ENV

PathLike = Union[str, Path]
USER_AGENT = "spacy-nseen-training/0.1 (+https://github.com/explosion/spaCy)"
CHUNK_SIZE = 1 << 16
NETWORK_HELP = (
    "Check the network connection, or use an offline mirror of the data: pass "
    f"--mirror DIR (project variable `mirror_dir`) or set the environment variable "
    f"{MIRROR_ENV}=DIR, e.g. {MIRROR_ENV}=../shared/data"
)


def resolve_mirror(mirror: Optional[PathLike] = None) -> Optional[Path]:
    """Return the mirror directory to use, if any.

    mirror (Optional[PathLike]): An explicit mirror directory (wins over the
        environment). An empty string means "no mirror".
    RETURNS (Optional[Path]): The mirror directory, or None to download.
    """
    value = str(mirror) if mirror is not None else os.environ.get(MIRROR_ENV, "")
    if not value.strip():
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise DataFileError(
            path,
            "mirror directory not found",
            f"Pass an existing directory with --mirror or {MIRROR_ENV}, or leave both "
            "empty to download from the official sources",
        )
    return path


def sha256_file(path: PathLike) -> str:
    """Return the SHA-256 hex digest of a file.

    path (PathLike): The file.
    RETURNS (str): The hex digest.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(CHUNK_SIZE), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(
    url: str,
    dest: PathLike,
    *,
    sha256: Optional[str] = None,
    timeout: float = 60.0,
    progress: bool = True,
) -> str:
    """Stream `url` to `dest`, atomically, verifying a SHA-256 checksum if given.

    url (str): The URL (http, https or ftp).
    dest (PathLike): The destination file.
    sha256 (Optional[str]): The expected hex digest; None for dynamic files
        (e.g. UniProt REST exports), whose digest is only recorded.
    timeout (float): Socket timeout in seconds.
    progress (bool): Show a progress bar.
    RETURNS (str): The SHA-256 hex digest of the downloaded file.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    digest = hashlib.sha256()
    received = 0
    try:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            expected = int(length) if length and length.isdigit() else None
            with open(tmp, "wb") as f, tqdm(
                total=expected,
                unit="B",
                unit_scale=True,
                desc=dest.name,
                disable=not progress,
                leave=False,
            ) as bar:
                while True:
                    chunk = response.read(CHUNK_SIZE)
                    if not chunk:
                        break
                    f.write(chunk)
                    digest.update(chunk)
                    received += len(chunk)
                    bar.update(len(chunk))
        if expected is not None and received != expected:
            raise DownloadError(
                dest,
                f"download of {url} was cut after {received} of {expected} bytes",
                NETWORK_HELP,
            )
        actual = digest.hexdigest()
        if sha256 is not None and actual != sha256.lower():
            raise DownloadError(
                dest,
                f"checksum mismatch for {url}: expected sha256 {sha256}, got {actual}",
                "The file changed upstream or the transfer was corrupted. Retry; if it "
                "persists, update the pinned checksum deliberately. " + NETWORK_HELP,
            )
        os.replace(tmp, dest)
        return actual
    except DownloadError:
        raise
    except (urllib.error.URLError, OSError, ValueError) as err:
        # http.client.IncompleteRead and socket timeouts are OSError/HTTPException
        raise DownloadError(dest, f"could not download {url} ({err})", NETWORK_HELP) from err
    except Exception as err:  # http.client.HTTPException is not an OSError
        raise DownloadError(dest, f"could not download {url} ({err!r})", NETWORK_HELP) from err
    finally:
        if tmp.exists():
            tmp.unlink()


def copy_from_mirror(mirror: Path, relative: str, dest: PathLike) -> str:
    """Copy a file from the mirror to `dest`, atomically.

    mirror (Path): The mirror directory.
    relative (str): The file's path inside the mirror, e.g. "chebi/names_3star_2018.tsv.gz".
    dest (PathLike): The destination file.
    RETURNS (str): The SHA-256 hex digest of the copied file.
    """
    src = mirror / relative
    if not src.is_file():
        raise DataFileError(
            src,
            "file not found in the mirror",
            f"Check that --mirror / {MIRROR_ENV} points at the offline data mirror "
            "(e.g. ../shared/data), or leave both empty to download",
        )
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()
    return sha256_file(dest)
