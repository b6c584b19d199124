"""Every setting of `nseen_linker` is a typed config setting, round-trips through `to_disk` → `spacy.load`, and
the component's config is the one source of truth for the linkers' settings."""
import json
import re
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.util import ConfigValidationError

from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.settings import IndexSettings, LinkerSettings

README = Path(__file__).parent.parent / "README.md"
WORDS = ["FOXP2", "binds", "caffeine", "and", "PLCγ2", "with", "water", "and", "H2O", "or", "glucose", "rapamycin"]
ENTS = [(0, 1, "PROTEIN"), (2, 3, "CHEMICAL"), (4, 5, "PROTEIN"), (6, 7, "CHEMICAL"), (8, 9, "CHEMICAL"),
        (10, 11, "CHEMICAL"), (11, 12, "CHEMICAL")]
# A value other than the default for every search setting (global), and typed per reference set changes.
CHANGED = {"n_candidates": 7, "exact_match": True, "sparse_weight": 0.3, "cache_size": 11, "fuzzy_weight": 0.15,
           "sparse_max_df": 0.5, "token_weight": 0.25, "exact_short_cut": False, "search_threads": 2,
           "exact_kind_priority": "hgnc", "exact_tie_break": "names", "query_form": "spelled_greek",
           "exact_fill": "sparse", "organism_weight": 0.2, "organism_min_confidence": 0.5,
           "n_trees": 20, "search_k": 300, "seed": 0, "build_precision": "fp32"}
KB_CHANGES = {"chebi": {"exact_tie_break": "prior", "exact_fill": "char", "exact_short_cut": True, "fuzzy_weight": 0.0},
              "uniprot": {"query_form": "ascii_dashes", "token_weight": 0.1}}


def readme_config_settings():
    """The setting names of the README's config table (a row may name several: `n_trees`, `search_k`, `seed`)."""
    text = README.read_text(encoding="utf8")
    table = text[text.index("### Config"):text.index("The hybrid score of a candidate")]
    names = []
    for line in table.splitlines():
        if line.startswith("| `"):
            names.extend(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return names


def links(nlp, make_doc):
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    return [(e.text, e.kb_id_, e._.kb_score, e._.kb_candidates) for e in doc.ents]


def test_every_setting_the_readme_documents_is_a_config_setting(make_nlp):
    documented = readme_config_settings()
    assert {"exact_fill", "query_form", "exact_tie_break", "exact_kind_priority", "search_k", "n_trees"} <= set(documented)
    nlp = make_nlp(initialize=False)
    block = nlp.config["components"]["nseen_linker"]
    assert sorted(set(documented) - set(block)) == []
    # the command of the issue, and each documented setting reaches the linker's settings
    nlp = make_nlp(initialize=False, exact_fill="sparse", query_form="spelled_greek", exact_tie_break="names",
                   exact_kind_priority="hgnc")
    pipe = nlp.get_pipe("nseen_linker")
    assert (pipe.settings.exact_fill, pipe.settings.query_form, pipe.settings.exact_tie_break,
            pipe.settings.exact_kind_priority) == ("sparse", "spelled_greek", "names", "hgnc")


def test_the_defaults_are_those_of_the_settings_types(make_nlp):
    block = make_nlp(initialize=False).config["components"]["nseen_linker"]
    for name, value in {**LinkerSettings().to_dict(), **IndexSettings().__dict__}.items():
        assert block[name] == value, name
    pipe = make_nlp(initialize=False).get_pipe("nseen_linker")
    assert pipe.search_k == 500 and pipe.n_trees == 20  # was -1 in NseenLinker.__init__


@pytest.mark.parametrize("config,pattern", [
    ({"exact_fill": "all"}, r"nseen_linker -> exact_fill"),
    ({"query_form": "klingon"}, r"nseen_linker -> query_form"),
    ({"exact_kind_priority": "hgnc2"}, r"nseen_linker -> exact_kind_priority"),
    ({"n_candidates": "many"}, r"nseen_linker -> n_candidates"),
    ({"kb_settings": {"chebi": {"exact_tie_break": "random"}}}, r"kb_settings.*chebi.*exact_tie_break"),
])
def test_bad_types_fail_in_spacys_config_validation_naming_the_setting(make_nlp, config, pattern):
    with pytest.raises(ConfigValidationError, match=pattern):
        make_nlp(initialize=False, **config)


def test_bad_ranges_name_the_setting(make_nlp):
    with pytest.raises(ValueError, match=r"nseen_linker: fuzzy_weight must be in \[0, 1 - sparse_weight\]"):
        make_nlp(initialize=False, fuzzy_weight=2.0)
    with pytest.raises(ValueError, match=r"nseen_linker: n_trees must be at least 1"):
        make_nlp(initialize=False, n_trees=0)


@pytest.fixture
def star_file(tmp_path):
    path = tmp_path / "stars.tsv"
    path.write_text("kb_id\tstar\nCHEBI:15377\t1\nCHEBI:9753\t3\n", encoding="utf8")
    return path


def initialized(make_nlp, linker_dirs, star_file, **config):
    nlp = make_nlp(initialize=False, **config)
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "linkers": {kb: str(linker_dirs[kb]) for kb in ("uniprot", "chebi")},
        "entity_priors": {"chebi": f"{star_file}:star"},
    }
    with pytest.warns(UserWarning, match="saved with other settings"):
        nlp.initialize()
    return nlp


def test_every_setting_survives_to_disk_and_spacy_load_with_identical_links(make_nlp, make_doc, linker_dirs, star_file, tmp_path):
    nlp = initialized(make_nlp, linker_dirs, star_file, **CHANGED, kb_settings=KB_CHANGES)
    pipe = nlp.get_pipe("nseen_linker")
    assert pipe.linkers["chebi"].settings.exact_tie_break == "prior"
    linker_changes = {k: v for k, v in CHANGED.items() if k in LinkerSettings().to_dict()}
    assert pipe.linkers["uniprot"].settings == LinkerSettings(**{**linker_changes, **KB_CHANGES["uniprot"]})
    before = links(nlp, make_doc)
    assert any(c for _, _, _, c in before)
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    block = loaded.config["components"]["nseen_linker"]
    for name, value in CHANGED.items():
        assert block[name] == value, name
    assert {kb: {k: v for k, v in changes.items() if v is not None} for kb, changes in block["kb_settings"].items()} == KB_CHANGES
    loaded_pipe = loaded.get_pipe("nseen_linker")
    for kb in ("uniprot", "chebi"):
        assert loaded_pipe.linkers[kb].settings == pipe.linkers[kb].settings, kb
    assert loaded_pipe.index_settings == pipe.index_settings and loaded_pipe.linkers["uniprot"].index.search_k == 300
    numpy.testing.assert_array_equal(loaded_pipe.linkers["chebi"].entity_prior, pipe.linkers["chebi"].entity_prior)
    assert links(loaded, make_doc) == before
    assert links(spacy.load(tmp_path / "pipeline"), make_doc) == before  # a second load, fresh caches


def test_the_prior_tie_break_orders_exact_matches_after_spacy_load(make_nlp, make_doc, linker_dirs, tmp_path):
    """The entity prior given at initialize is saved with the pipeline and restored by spacy.load (it was not saved:
    the first link after loading failed)."""
    root = tmp_path / "ties"
    (root / "kb.tsv").parent.mkdir()
    (root / "stars.tsv").write_text("kb_id\tstar\nCHEBI:15377\t1\nCHEBI:17234\t3\n", encoding="utf8")
    nlp = make_nlp(initialize=False, kbs={"CHEMICAL": "chebi"}, kb_settings={"chebi": {"exact_tie_break": "prior"}})
    pipe = nlp.get_pipe("nseen_linker")
    pipe.initialize(lambda: [], nlp=nlp, linkers={"chebi": str(linker_dirs["chebi"])},
                    entity_priors={"chebi": f"{root / 'stars.tsv'}:star"})
    linker = pipe.linkers["chebi"]
    glucose = linker.reference_set.entity_index("CHEBI:17234")
    assert linker.entity_prior[glucose] == 3.0
    before = links(nlp, make_doc)
    nlp.to_disk(root / "pipeline")
    assert (root / "pipeline" / "nseen_linker" / "kb_chebi" / "entity_prior.npz").exists()
    assert links(spacy.load(root / "pipeline"), make_doc) == before


def test_a_prior_tie_break_without_a_prior_fails_at_load_naming_the_file(make_nlp, linker_dirs, tmp_path):
    nlp = make_nlp(initialize=False, kbs={"CHEMICAL": "chebi"}, exact_tie_break="prior")
    with pytest.raises(ArtifactError, match=r"entity_prior.npz.*exact_tie_break='prior' for 'chebi' needs the entity prior"):
        nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, linkers={"chebi": str(linker_dirs["chebi"])})
    # a pipeline saved before priors were saved: spacy.load says which file is missing and what to do
    nlp = make_nlp(initialize=False, kbs={"CHEMICAL": "chebi"})
    nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, linkers={"chebi": str(linker_dirs["chebi"])})
    nlp.to_disk(tmp_path / "old")
    config = (tmp_path / "old" / "config.cfg").read_text(encoding="utf8")
    (tmp_path / "old" / "config.cfg").write_text(config.replace('exact_tie_break = "score"', 'exact_tie_break = "prior"'), encoding="utf8")
    with pytest.raises(ArtifactError, match=r"kb_chebi/entity_prior.npz.*Give it at initialize"):
        spacy.load(tmp_path / "old")


def test_the_component_config_is_the_one_source_of_settings(make_nlp, make_doc, tmp_path):
    nlp = make_nlp(kb_settings={"chebi": {"fuzzy_weight": 0.2}})
    before = links(nlp, make_doc)
    nlp.to_disk(tmp_path / "pipeline")
    meta_path = tmp_path / "pipeline" / "nseen_linker" / "kb_chebi" / "linker.json"
    meta = json.loads(meta_path.read_text(encoding="utf8"))
    assert meta["settings"]["fuzzy_weight"] == 0.2  # the record agrees with the config it was saved from
    meta["settings"].update(fuzzy_weight=0.0, sparse_weight=0.9, token_weight=0.0, exact_fill="char")
    meta_path.write_text(json.dumps(meta), encoding="utf8")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("nseen_linker").linkers["chebi"].settings.fuzzy_weight == 0.2
    assert links(loaded, make_doc) == before
