"""`python -m spacy_nseen upgrade-config PIPELINE`: rewrite a pipeline saved by spacy_nseen 0.1.0 (flat `nseen_linker`
settings) into this version's config shape; the linkers, the NER and every other file are left as they are."""

from pathlib import Path
from typing import Optional

import typer
from thinc.api import Config

from ..parts.legacy import is_legacy_config, is_legacy_initialize, upgrade_initialize_block, upgrade_linker_config
from . import app

CONFIG_FILE = "config.cfg"


@app.command("upgrade-config")
def upgrade_config(
    pipeline: Path = typer.Argument(..., help="A saved pipeline directory (with config.cfg), or a config file"),
    output: Optional[Path] = typer.Option(
        None,
        "--output",
        "-o",
        help="Where to write the upgraded config (default: in place, the old one kept as config.cfg.0.1.0)",
    ),
) -> None:
    """Put a 0.1.0 config's flat `nseen_linker` settings into the registered blocks that replace them."""
    path = pipeline / CONFIG_FILE if pipeline.is_dir() else pipeline
    if not path.is_file():
        typer.echo(f"error: {path}: no such config file (give a pipeline directory or its config.cfg)", err=True)
        raise typer.Exit(1)
    text = path.read_text(encoding="utf8")
    config = Config().from_str(text, interpolate=False)
    changed = []
    for name, block in config.get("components", {}).items():
        if block.get("factory") == "nseen_linker" and is_legacy_config(block):
            try:
                config["components"][name] = upgrade_linker_config(block)
            except ValueError as err:
                typer.echo(f"error: {path}: [components.{name}]: {err}", err=True)
                raise typer.Exit(1) from None
            changed.append(f"components.{name}")
    for name, block in config.get("components", {}).items():
        init = config.get("initialize", {}).get("components", {}).get(name)
        if block.get("factory") == "nseen_linker" and init and is_legacy_initialize(init):
            config["initialize"]["components"][name] = upgrade_initialize_block(init)
            changed.append(f"initialize.components.{name}")
    if not changed:
        typer.echo(f"{path}: no nseen_linker component with 0.1.0 settings; nothing to do")
        return
    target = output or path
    if output is None:
        path.with_name(path.name + ".0.1.0").write_text(text, encoding="utf8")
    config.to_disk(target, interpolate=False)
    typer.echo(f"upgraded [{'], ['.join(changed)}] -> {target}")
