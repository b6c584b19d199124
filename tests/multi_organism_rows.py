"""A tiny multi-organism reference set (orthologs sharing names), shared by the organism tests."""
HUMAN, MOUSE, YEAST = 9606, 10090, 559292
ROWS = [
    ("UniProt:P60953", "Cell division control protein 42 homolog", "recommended"),
    ("UniProt:P60953", "CDC42", "gene_primary"),
    ("UniProt:P60766", "Cell division control protein 42 homolog", "recommended"),
    ("UniProt:P60766", "Cdc42", "gene_primary"),
    ("UniProt:P19073", "Cell division control protein 42", "recommended"),
    ("UniProt:P19073", "CDC42", "gene_primary"),
    ("UniProt:P04637", "Cellular tumor antigen p53", "recommended"),
    ("UniProt:P04637", "TP53", "gene_primary"),
    ("UniProt:P02340", "Cellular tumor antigen p53", "recommended"),
    ("UniProt:P02340", "Trp53", "gene_primary"),
]
TAXA = {"UniProt:P60953": HUMAN, "UniProt:P60766": MOUSE, "UniProt:P19073": YEAST, "UniProt:P04637": HUMAN, "UniProt:P02340": MOUSE}


def organism_signal(reference, over_exact_score: float = 1.0):
    """The organism signal of a toy multi-organism reference set, with its ortholog table and the shipped weights."""
    from spacy_nseen.linker.signals.organism import OrganismSignal
    from spacy_nseen.organisms.orthologs import OrthologTable

    table = OrthologTable(reference)
    return OrganismSignal(reference.entity_taxa, reference.name_entity, 0.1, 0.3, lambda: table, over_exact_score)
