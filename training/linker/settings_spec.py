"""LinkerSettings changes written as a spec on a command line: `label:key=value,key=value`.

`training.linker.build_linker --settings` saves such changes with a linker; `training.evaluation.evaluate --variant`
and `training.evaluation.error_analysis --settings` try them on a loaded linker.
"""
from typing import Any, Dict


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
