"""LinkerSettings changes written as a spec on a command line: `label:key=value,key=value`, or a reference set of a
pipeline config, `configs/pipeline.cfg#uniprot` (the one source of the shipped per-set settings).

`training.linker.build_linker --settings` saves such settings with a linker; `training.evaluation.evaluate --variant`
and `training.evaluation.error_analysis --settings` try them on a loaded linker.
"""
from pathlib import Path
from typing import Any, Dict, Optional

from thinc.api import Config

from spacy_nseen.linker.settings import LinkerSettings

CONFIG_SEPARATOR = "#"


def linker_from_config(path: Optional[Path]) -> Any:
    """RETURNS (NseenLinker): the uninitialised `nseen_linker` a pipeline config's block makes (None: the factory
    defaults)."""
    import spacy

    block: Dict[str, Any] = {}
    if path is not None:
        block = dict(Config().from_disk(path)["components"]["nseen_linker"])
    block.pop("factory", None)
    return spacy.blank("en").add_pipe("nseen_linker", config=block)


def is_config_spec(spec: str) -> bool:
    """RETURNS (bool): whether `spec` names a reference set of a config file (`PATH.cfg#SET`)."""
    path, separator, _ = spec.partition(CONFIG_SEPARATOR)
    return bool(separator) and path.endswith(".cfg")


def settings_from_config(spec: str) -> LinkerSettings:
    """RETURNS (LinkerSettings): the settings of the reference set `SET` of `PATH.cfg#SET`'s nseen_linker (its own
    ranker and decision, else the component's)."""
    path, _, kb = spec.partition(CONFIG_SEPARATOR)
    pipe = linker_from_config(Path(path))
    if kb not in pipe.kb_names:
        raise ValueError(f"{path}: nseen_linker has no reference set '{kb}' (it has {pipe.kb_names})")
    return pipe.settings_for(kb)


def parse_variant(spec: str, base: Any) -> Any:
    """Parse 'name:key=value,key=value' into (name, LinkerSettings with those fields changed)."""
    from dataclasses import replace

    label, _, assignments = spec.partition(":")
    changes: Dict[str, Any] = {}
    for part in filter(None, assignments.split(",")):
        key, _, value = part.partition("=")
        current = getattr(base, key.strip())
        if isinstance(current, bool):
            changes[key.strip()] = value.strip().lower() in ("1", "true", "yes")
        else:
            changes[key.strip()] = type(current)(value)
    return label.strip(), replace(base, **changes)
