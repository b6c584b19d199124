"""The organisms a request may name: an NCBI taxon id or a name the organism lexicon knows (`human`, `mouse`),
checked against the pipeline's allowed organisms when it has some."""

from typing import Dict, List, Optional, Sequence, Union

from ..organisms.lexicon import ORGANISM_NAMES, TAXON_ALIASES, canonical_taxon, known_taxa, organism_name
from .errors import ServiceError


def organism_table() -> Dict[int, str]:
    """RETURNS (Dict[int, str]): Every taxon a request may give → its readable name, sorted by taxon."""
    taxa = set(ORGANISM_NAMES) | set(TAXON_ALIASES) | set(known_taxa())
    return {taxon: organism_name(canonical_taxon(taxon)) for taxon in sorted(taxa)}


def resolve_organism(value: Union[int, str], where: str, allowed: Sequence[int] = ()) -> int:
    """The taxon of an organism a request names.

    value (Union[int, str]): A taxon id, a taxon id as a string, or a name (case-insensitive).
    where (str): Where it is in the request, for the error message (`organisms[0]`).
    allowed (Sequence[int]): The pipeline's organisms (empty: any known one).
    RETURNS (int): The taxon UniProt uses for it. RAISES (ServiceError): 422 naming the known ones.
    """
    table = organism_table()
    taxon: Optional[int] = None
    if isinstance(value, int) and not isinstance(value, bool):
        taxon = value if value in table else None
    elif isinstance(value, str):
        key = value.strip().casefold()
        if key.isdigit() and int(key) in table:
            taxon = int(key)
        else:
            taxon = next((t for t, name in ORGANISM_NAMES.items() if name.casefold() == key), None)
    if taxon is None:
        raise ServiceError(
            422, f"{where}: unknown organism {value!r}; give an NCBI taxon id or a name listed by GET /v1/info"
        )
    taxon = canonical_taxon(taxon)
    if allowed and taxon not in allowed:
        raise ServiceError(422, f"{where}: this pipeline links only the organisms {sorted(allowed)}, not {taxon}")
    return taxon


def resolve_organisms(values: Optional[Sequence[Union[int, str]]], allowed: Sequence[int] = ()) -> Optional[List[int]]:
    """RETURNS (Optional[List[int]]): The taxa of a request's `organisms` (None when not given)."""
    if values is None:
        return None
    return [resolve_organism(value, f"organisms[{i}]", allowed) for i, value in enumerate(values)]
