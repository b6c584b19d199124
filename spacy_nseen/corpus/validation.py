"""Checks of an annotation run's settings made before anything is written: a mistyped pipeline, format or
option fails with the option's name and what to give, and leaves the output directory as it was."""

from pathlib import Path

from spacy.util import is_package

from .errors import CorpusError
from .readers import READERS, detect_format
from .worker import OUTPUT_FORMATS


def check_pipeline(pipeline: str) -> None:
    """Fail unless `pipeline` names an installed pipeline package or a pipeline directory (with `config.cfg`).

    pipeline (str): What `--pipeline` gave.
    """
    path = Path(pipeline)
    if path.exists():
        if not (path / "config.cfg").is_file():
            raise CorpusError(path, "is not a pipeline directory (no config.cfg)", "Give --pipeline a saved pipeline")
        return
    if not is_package(pipeline):
        raise CorpusError(
            path,
            "is neither an installed pipeline package nor a directory",
            "Check --pipeline (e.g. en_nseen_bio_demo after `bash scripts/demo.sh`, or a path to nlp.to_disk's output)",
        )


def check_settings(input_path: Path, input_format: str, output_format: str, shard_size: int, batch_size: int) -> str:
    """Check the input and the options of a run.

    RETURNS (str): the input's format (`input_format`, or the one its name tells when `auto`).
    """
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"--output-format {output_format!r}: use one of {list(OUTPUT_FORMATS)}")
    if shard_size < 1 or batch_size < 1:
        raise ValueError(f"--shard-size ({shard_size}) and --batch-size ({batch_size}) must be at least 1")
    if input_format != "auto" and input_format not in READERS:
        raise ValueError(f"--format {input_format!r}: use auto or one of {sorted(READERS)}")
    if not input_path.exists():
        raise CorpusError(input_path, "no such file or directory", "Check the INPUT path")
    resolved = detect_format(input_path) if input_format == "auto" else input_format
    if (resolved == "txt") != input_path.is_dir():
        raise CorpusError(
            input_path,
            f"is {'a directory' if input_path.is_dir() else 'a file'}, but the format is {resolved!r}",
            "Give a directory of .txt files with --format txt (or auto), a file with another --format",
        )
    return resolved
