"""Organisms by taxon id or name, checked against the pipeline's allowed ones."""

import pytest

from spacy_nseen.service.errors import ServiceError
from spacy_nseen.service.organisms import organism_table, resolve_organism, resolve_organisms


def test_taxa_and_names_resolve_to_uniprots_taxon() -> None:
    assert resolve_organism(9606, "x") == 9606
    assert resolve_organism("Mouse", "x") == 10090
    assert resolve_organism("4932", "x") == 559292  # the species id → the strain UniProt uses
    assert resolve_organisms(None) is None
    assert organism_table()[9606] == "human"


@pytest.mark.parametrize("value", ["martian", 0, -1, True, "", 123456789])
def test_an_unknown_organism_is_422_naming_where(value: object) -> None:
    with pytest.raises(ServiceError) as error:
        resolve_organisms([9606, value])  # type: ignore[list-item]
    assert error.value.status == 422 and error.value.message.startswith("organisms[1]: unknown organism")


def test_an_organism_the_pipeline_does_not_link_is_422() -> None:
    with pytest.raises(ServiceError, match="links only the organisms"):
        resolve_organism("mouse", "organisms[0]", allowed=[9606])
