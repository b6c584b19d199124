"""Token patterns of abbreviated binomial names (`T. gondii`, `H. influenzae`, `E.coli`) for an ORGANISM ruler.

The statistical NER learns the organisms it saw (`mice`, `E. coli`) but not the shape of a binomial name, so an
organism first met in the dev articles (`T. gondii`, 32 dev mentions, none in training) is missed. An
`entity_ruler` after the NER (`configs/ner.cfg`, `overwrite_ents = false`: the NER keeps its own spans) adds
them. The caption tokenizer splits `T. gondii` into `T`, `.`, `gondii`. Panel letters before a word (`B. with`,
`E. left`) are the false matches: common English and caption words are refused as the species part.

    python -m training.ner.organism_patterns configs/organism_patterns.json
"""
import json
from pathlib import Path
from typing import Any, Dict, List

import typer
from spacy.lang.en.stop_words import STOP_WORDS

LABEL = "ORGANISM"
# words that follow a panel letter in captions ("B. left", "D. mouse") and are never a species epithet
CAPTION_WORDS = (
    "arrow", "arrows", "bars", "blot", "blots", "cell", "cells", "control", "controls", "cross", "data", "human",
    "image", "images", "inset", "left", "lens", "lower", "mean", "means", "mice", "middle", "mouse", "panel", "plot",
    "quantification", "right", "scale", "section", "sections", "show", "shown", "shows", "staining", "times",
    "upper", "values", "virus", "whole",
)
MIN_EPITHET = 4


def refused_epithets() -> List[str]:
    """RETURNS (List[str]): lower-case words refused as the species part, sorted."""
    return sorted({w for w in STOP_WORDS if len(w) >= MIN_EPITHET} | set(CAPTION_WORDS))


def organism_patterns() -> List[Dict[str, Any]]:
    """RETURNS (List[Dict[str, Any]]): `entity_ruler` patterns: `T . gondii` (three tokens) and `E.coli` (one)."""
    epithet = f"^[a-z]{{{MIN_EPITHET},}}$"
    return [
        {"label": LABEL, "id": "binomial_abbreviation",
         "pattern": [{"TEXT": {"REGEX": "^[A-Z]$"}}, {"ORTH": "."},
                     {"TEXT": {"REGEX": epithet}, "LOWER": {"NOT_IN": refused_epithets()}}]},
        {"label": LABEL, "id": "binomial_abbreviation_glued",
         "pattern": [{"TEXT": {"REGEX": f"^[A-Z]\\.[a-z]{{{MIN_EPITHET},}}$"}}]},
    ]


def write_patterns(path: Path) -> None:
    """Write the patterns as one JSON list (`srsly.read_json.v1` in the config; the ruler wants a sequence)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(organism_patterns(), ensure_ascii=False, indent=1) + "\n", encoding="utf8")


def main(output: Path = typer.Argument(..., help="JSON file of entity_ruler patterns")) -> None:
    """Write the binomial-name ORGANISM patterns."""
    write_patterns(output)
    typer.echo(f"Saved {len(organism_patterns())} patterns to {output}")


if __name__ == "__main__":
    typer.run(main)
