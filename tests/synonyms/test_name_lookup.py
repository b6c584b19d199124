from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.synonyms.name_lookup import NameLookup


def test_lookup_by_loose_key_skips_derived_short_forms() -> None:
    reference = ReferenceSet.from_rows([
        ("UniProt:P16885", "1-phosphatidylinositol phosphodiesterase gamma-2", "recommended"),
        ("UniProt:P16885", "PLC-gamma-2", "alternative"),
        ("UniProt:P19174", "PLCG1", "gene_primary"),
        ("UniProt:P19174", "PLCG", "short_stem"),
    ])
    lookup = NameLookup(reference)
    assert lookup.entities_of("PLCγ2") == {"UniProt:P16885"}
    assert lookup.names_entity("plcg1", "UniProt:P19174") and not lookup.is_name("PLCG")
    assert lookup.display_name("UniProt:P16885") == "1-phosphatidylinositol phosphodiesterase gamma-2"
    assert lookup.display_name("UniProt:P19174") == "PLCG1"
