"""An output directory of shards, each written to a `.part` file and renamed into place when complete, so
that an interrupted run resumes at the first missing shard and no half-written shard is ever in use.

Layout: `manifest.json` (the run's settings; a resume with other settings is refused), per shard
`shard-NNNNNN.<ext>` and `shard-NNNNNN.stats.json` (its counts and bad records; renamed first, so a data file
always has its stats), and at the end `summary.json` and `bad_records.jsonl`.
"""

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List

from .errors import CorpusError
from .worker import ShardResult

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
BAD_RECORDS = "bad_records.jsonl"
EXTENSIONS = {"jsonl": "jsonl", "bioc-xml": "bioc.xml"}
FORMAT_VERSION = 1


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through `path.part`, fsync'd, then renamed: readers see all of it or nothing.

    path (Path): The final file.
    text (str): Its content (UTF-8).
    """
    part = path.with_name(path.name + ".part")
    with open(part, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, path)


class ShardStore:
    """The shards of one annotation run.

    output (Path): The output directory (created).
    settings (Dict[str, Any]): What the shards depend on (input, formats, shard size, pipeline); stored in
        the manifest and compared on resume.
    overwrite (bool): Delete the shards of a run with other settings instead of refusing.
    """

    def __init__(self, output: Path, settings: Dict[str, Any], overwrite: bool = False) -> None:
        self.output = output
        self.settings = {"format_version": FORMAT_VERSION, **settings}
        self.extension = EXTENSIONS[settings["output_format"]]
        if output.exists() and not output.is_dir():
            raise CorpusError(
                output, "exists and is not a directory", "OUTPUT is a directory of shards; choose another path"
            )
        output.mkdir(parents=True, exist_ok=True)
        for part in output.glob("*.part"):
            part.unlink()  # a write cut short by a crash
        manifest = output / MANIFEST
        if manifest.exists():
            try:
                previous = json.loads(manifest.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as err:
                raise CorpusError(
                    manifest, f"unreadable manifest ({err})", "Delete OUTPUT or pass --overwrite"
                ) from err
            if previous != self.settings:
                if not overwrite:
                    changed = sorted(
                        k for k in set(previous) | set(self.settings) if previous.get(k) != self.settings.get(k)
                    )
                    raise CorpusError(
                        manifest,
                        f"written by a run with other settings ({', '.join(changed)} differ)",
                        "Resume with the same INPUT, pipeline and options, use another OUTPUT, or pass --overwrite",
                    )
                self.clear()
        write_atomic(manifest, json.dumps(self.settings, indent=2, sort_keys=True) + "\n")

    def clear(self) -> None:
        """Delete every shard, stats and summary file of this directory."""
        for path in list(self.output.glob("shard-*")) + [self.output / SUMMARY, self.output / BAD_RECORDS]:
            if path.exists():
                path.unlink()

    def shard_path(self, index: int) -> Path:
        """RETURNS (Path): The data file of shard `index`."""
        return self.output / f"shard-{index:06d}.{self.extension}"

    def stats_path(self, index: int) -> Path:
        """RETURNS (Path): The stats file of shard `index`."""
        return self.output / f"shard-{index:06d}.stats.json"

    def is_done(self, index: int) -> bool:
        """RETURNS (bool): Whether shard `index` was completely written."""
        if not self.shard_path(index).exists():
            return False
        if not self.stats_path(index).exists():
            raise CorpusError(
                self.stats_path(index),
                "missing beside its shard",
                f"Delete {self.shard_path(index).name} to redo that shard",
            )
        return True

    def write(self, result: ShardResult) -> None:
        """Store one shard: its stats, then its data (the rename of the data file completes it)."""
        write_atomic(self.stats_path(result.index), json.dumps(result.stats, ensure_ascii=False, sort_keys=True) + "\n")
        write_atomic(self.shard_path(result.index), result.payload)

    def stats(self, index: int) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): The counts of a completed shard."""
        path = self.stats_path(index)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CorpusError(
                path, f"unreadable ({err})", f"Delete it and {self.shard_path(index).name} to redo that shard"
            ) from err

    def shard_files(self) -> List[Path]:
        """RETURNS (List[Path]): The completed data files, in shard order."""
        return sorted(self.output.glob(f"shard-*.{self.extension}"))

    def iter_bad_records(self, n_shards: int) -> Iterator[Dict[str, Any]]:
        """YIELDS (Dict[str, Any]): The bad records of shards 0..n_shards-1, each with its `shard`."""
        for index in range(n_shards):
            for bad in self.stats(index)["bad_records"]:
                yield {"shard": index, **bad}
