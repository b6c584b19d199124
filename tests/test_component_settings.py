"""Every setting of `nseen_linker` is a typed config setting of a registered part, round-trips through `to_disk` →
`spacy.load`, a part can be swapped through the config alone, and the component's config is the one source of truth
for the linkers' settings."""
import json
import re
from pathlib import Path
from typing import List, Optional, Sequence

import numpy
import pytest
import spacy
from spacy.util import ConfigValidationError, registry

from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.candidate import Candidate
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.settings import IndexSettings, LinkerSettings
from spacy_nseen.linker.signals.base import Verdict
from spacy_nseen.organisms.ranking import OrganismContext
from spacy_nseen.parts.decision import LinkDecision
from spacy_nseen.parts.kb_loaders import linker_directory, linker_directory_block
from spacy_nseen.parts.knowledge_bases import KEYS as KNOWLEDGE_BASE_KEYS
from spacy_nseen.parts.ranker import Ranker, make_hybrid_ranker

WORDS = ["FOXP2", "binds", "caffeine", "and", "PLCγ2", "with", "water", "and", "H2O", "or", "glucose", "rapamycin"]
ENTS = [(0, 1, "PROTEIN"), (2, 3, "CHEMICAL"), (4, 5, "PROTEIN"), (6, 7, "CHEMICAL"), (8, 9, "CHEMICAL"),
        (10, 11, "CHEMICAL"), (11, 12, "CHEMICAL")]
HYBRID = "spacy_nseen.HybridRanker.v1"
TOP_LEVEL = {"factory", "encoder", "kbs", "ranker", "index", "organisms", "decision", "scorer", "top_k", "overwrite",
             "batch_size"}
# A value other than the default for every ranker and index setting, and each set's own ranker.
RANKER = {"@misc": HYBRID, "n_candidates": 7, "exact_match": True, "sparse_weight": 0.3, "cache_size": 11,
          "fuzzy_weight": 0.15, "sparse_max_df": 0.5, "token_weight": 0.25, "exact_short_cut": False,
          "exact_tie_break": "names", "query_form": "spelled_greek", "organism_weight": 0.2,
          "organism_min_confidence": 0.5}
INDEX = {"@misc": "spacy_nseen.AnnoyIndex.v1", "n_trees": 20, "search_k": 300, "seed": 0, "build_precision": "fp32",
         "search_threads": 2}
KBS = {"uniprot": {"labels": ["PROTEIN"], "ranker": {**RANKER, "query_form": "ascii_dashes", "token_weight": 0.1}},
       "chebi": {"labels": ["CHEMICAL"], "ranker": {**RANKER, "exact_tie_break": "prior", "exact_short_cut": True,
                                                     "fuzzy_weight": 0.0}}}


def links(nlp, make_doc):
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    return [(e.text, e.kb_id_, e._.kb_score, e._.kb_candidates) for e in doc.ents]


def test_the_config_has_ten_settings_each_part_a_registered_block(make_nlp):
    block = make_nlp(initialize=False).config["components"]["nseen_linker"]
    assert set(block) == TOP_LEVEL
    assert block["ranker"]["@misc"] == HYBRID and block["index"]["@misc"] == "spacy_nseen.AnnoyIndex.v1"
    assert block["organisms"]["@misc"] == "spacy_nseen.OrganismAssigner.v1"
    assert block["decision"]["@misc"] == "spacy_nseen.NilDecision.v1"
    assert block["scorer"]["@scorers"] == "spacy_nseen.linker_scorer.v1"


def test_the_defaults_are_those_of_the_settings_types(make_nlp):
    nlp = make_nlp(initialize=False)
    block = nlp.config["components"]["nseen_linker"]
    for name, value in make_hybrid_ranker().search.items():
        assert block["ranker"][name] == value == getattr(LinkerSettings(), name), name
    for name, value in IndexSettings().__dict__.items():
        assert block["index"][name] == value, name
    pipe = nlp.get_pipe("nseen_linker")
    assert pipe.settings == LinkerSettings() and pipe.search_k == 500 and pipe.n_trees == 20


@pytest.mark.parametrize("config,pattern", [
    ({"ranker": {"@misc": HYBRID, "query_form": "klingon"}}, r"ranker -> query_form"),
    ({"ranker": {"@misc": HYBRID, "n_candidates": "many"}}, r"ranker -> n_candidates"),
    ({"ranker": {"@misc": HYBRID, "exact_fill": "sparse"}}, r"ranker -> exact_fill\tunexpected argument"),  # an ablation, gone
    ({"decision": {"@misc": "spacy_nseen.NilDecision.v1", "threshold": "high"}}, r"decision -> threshold"),
    ({"index": {"@misc": "spacy_nseen.AnnoyIndex.v1", "build_precision": "fp8"}}, r"index -> build_precision"),
    ({"kbs": {"chebi": {"labels": ["CHEMICAL"], "ranker": {"@misc": HYBRID, "exact_tie_break": "random"}}}},
     r"ranker -> exact_tie_break"),
])
def test_bad_types_fail_in_spacys_config_validation_naming_the_setting(make_nlp, config, pattern):
    with pytest.raises(ConfigValidationError, match=pattern):
        make_nlp(initialize=False, **config)


def test_bad_ranges_name_the_setting(make_nlp):
    with pytest.raises(ValueError, match=r"ranker: fuzzy_weight must be in \[0, 1 - sparse_weight\]"):
        make_nlp(initialize=False, ranker={"@misc": HYBRID, "fuzzy_weight": 2.0})
    with pytest.raises(ValueError, match=r"n_trees must be at least 1"):
        make_nlp(initialize=False, index={"@misc": "spacy_nseen.AnnoyIndex.v1", "n_trees": 0})
    with pytest.raises(ValueError, match=r"kbs.chebi.labels must be a non-empty list"):
        make_nlp(initialize=False, kbs={"chebi": {"labels": []}})
    with pytest.raises(ValueError, match=r"'CHEMICAL' is already linked to 'chebi'"):
        make_nlp(initialize=False, kbs={"chebi": {"labels": ["CHEMICAL"]}, "other": {"labels": ["CHEMICAL"]}})


class NeverLink(LinkDecision):
    """A user's decision: every mention stays unlinked, its candidates kept."""

    def verdicts(self, linker: KnowledgeBaseLinker, mentions: Sequence[str], results: Sequence[Sequence[Candidate]],
                 contexts: Sequence[Optional[OrganismContext]]) -> List[Verdict]:
        return [Verdict(None, c[0].score if c else None, False) for c in results]


@registry.misc("test_settings.NeverLink.v1")
def make_never_link() -> LinkDecision:
    return NeverLink()


@registry.misc("test_settings.ExactOnly.v1")
def make_exact_only(n_candidates: int = 3) -> Ranker:
    """A user's ranker: the hybrid ranking with the lexical signals off and few candidates."""
    return Ranker("hybrid", {**make_hybrid_ranker().search, "n_candidates": n_candidates, "token_weight": 0.0,
                             "sparse_weight": 0.0})


def test_a_user_registered_decision_and_ranker_are_swapped_in_through_the_config_alone(make_nlp, make_doc, tmp_path):
    default = links(make_nlp(), make_doc)
    assert any(kb_id for _, kb_id, _, _ in default)
    nlp = make_nlp(decision={"@misc": "test_settings.NeverLink.v1"}, ranker={"@misc": "test_settings.ExactOnly.v1"})
    pipe = nlp.get_pipe("nseen_linker")
    assert isinstance(pipe.decision_for("chebi"), NeverLink) and pipe.settings_for("uniprot").n_candidates == 3
    swapped = links(nlp, make_doc)
    assert [kb_id for _, kb_id, _, _ in swapped] == [""] * len(swapped)
    assert [c for _, _, _, c in swapped] != [None] * len(swapped)  # candidates are still written
    nlp.to_disk(tmp_path / "pipeline")  # the parts are named in the saved config and come back with spacy.load
    assert links(spacy.load(tmp_path / "pipeline"), make_doc) == swapped


@pytest.fixture
def star_file(tmp_path):
    path = tmp_path / "stars.tsv"
    path.write_text("kb_id\tstar\nCHEBI:15377\t1\nCHEBI:9753\t3\n", encoding="utf8")
    return path


def initialized(make_nlp, linker_dirs, star_file, **config):
    nlp = make_nlp(initialize=False, **config)
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {
            "uniprot": linker_directory_block(linker_dirs["uniprot"]),
            "chebi": linker_directory_block(linker_dirs["chebi"], entity_prior=f"{star_file}:star"),
        },
    }
    with pytest.warns(UserWarning, match="saved with other settings"):
        nlp.initialize()
    return nlp


def test_every_setting_survives_to_disk_and_spacy_load_with_identical_links(make_nlp, make_doc, linker_dirs, star_file, tmp_path):
    nlp = initialized(make_nlp, linker_dirs, star_file, ranker=RANKER, index=INDEX, kbs=KBS)
    pipe = nlp.get_pipe("nseen_linker")
    assert pipe.linkers["chebi"].settings.exact_tie_break == "prior"
    uniprot = {k: v for k, v in KBS["uniprot"]["ranker"].items() if k != "@misc"}
    assert pipe.linkers["uniprot"].settings == LinkerSettings(**uniprot, search_threads=2)
    before = links(nlp, make_doc)
    assert any(c for _, _, _, c in before)
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    block = loaded.config["components"]["nseen_linker"]
    for part, values in (("ranker", RANKER), ("index", INDEX)):
        for name, value in values.items():
            assert block[part][name] == value, (part, name)
    for kb, values in KBS.items():
        assert {k: block["kbs"][kb]["ranker"][k] for k in values["ranker"]} == values["ranker"], kb
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
    nlp = make_nlp(initialize=False, kbs={"chebi": {"labels": ["CHEMICAL"], "ranker": {"@misc": HYBRID, "exact_tie_break": "prior"}}})
    pipe = nlp.get_pipe("nseen_linker")
    pipe.initialize(lambda: [], nlp=nlp, kb_loaders={"chebi": linker_directory(linker_dirs["chebi"], entity_prior=f"{root / 'stars.tsv'}:star")})
    linker = pipe.linkers["chebi"]
    glucose = linker.reference_set.entity_index("CHEBI:17234")
    assert linker.entity_prior[glucose] == 3.0
    before = links(nlp, make_doc)
    nlp.to_disk(root / "pipeline")
    assert (root / "pipeline" / "nseen_linker" / "kb_chebi" / "entity_prior.npz").exists()
    assert links(spacy.load(root / "pipeline"), make_doc) == before


def test_a_prior_tie_break_without_a_prior_fails_at_load_naming_the_file(make_nlp, linker_dirs, tmp_path):
    nlp = make_nlp(initialize=False, kbs={"chebi": {"labels": ["CHEMICAL"]}}, ranker={"@misc": HYBRID, "exact_tie_break": "prior"})
    with pytest.raises(ArtifactError, match=r"entity_prior.npz.*exact_tie_break='prior' for 'chebi' needs the entity prior"):
        nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, kb_loaders={"chebi": linker_directory(linker_dirs["chebi"])})
    # a pipeline saved before priors were saved: spacy.load says which file is missing and what to do
    nlp = make_nlp(initialize=False, kbs={"chebi": {"labels": ["CHEMICAL"]}})
    nlp.get_pipe("nseen_linker").initialize(lambda: [], nlp=nlp, kb_loaders={"chebi": linker_directory(linker_dirs["chebi"])})
    nlp.to_disk(tmp_path / "old")
    config = (tmp_path / "old" / "config.cfg").read_text(encoding="utf8")
    (tmp_path / "old" / "config.cfg").write_text(config.replace('exact_tie_break = "score"', 'exact_tie_break = "prior"'), encoding="utf8")
    with pytest.raises(ArtifactError, match=r"kb_chebi/entity_prior.npz.*Give it at initialize"):
        spacy.load(tmp_path / "old")


def test_the_component_config_is_the_one_source_of_settings(make_nlp, make_doc, tmp_path):
    nlp = make_nlp(kbs={"uniprot": {"labels": ["PROTEIN"]},
                        "chebi": {"labels": ["CHEMICAL"], "ranker": {"@misc": HYBRID, "fuzzy_weight": 0.2}}})
    before = links(nlp, make_doc)
    nlp.to_disk(tmp_path / "pipeline")
    meta_path = tmp_path / "pipeline" / "nseen_linker" / "kb_chebi" / "linker.json"
    meta = json.loads(meta_path.read_text(encoding="utf8"))
    assert meta["settings"]["fuzzy_weight"] == 0.2  # the record agrees with the config it was saved from
    meta["settings"].update(fuzzy_weight=0.0, sparse_weight=0.9, token_weight=0.0, exact_fill="char")  # a stale record
    meta_path.write_text(json.dumps(meta), encoding="utf8")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("nseen_linker").linkers["chebi"].settings.fuzzy_weight == 0.2
    assert links(loaded, make_doc) == before


def readme_settings_rows() -> List[List[str]]:
    """The settings named in the first column of each row of the README's settings table."""
    text = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf8")
    table = text[text.index("## Settings"):]
    table = table[:table.index("\n\n", table.index("| setting"))]
    return [re.findall(r"`([a-z_.<>]+)`", line.split("|")[1]) for line in table.splitlines() if line.startswith("| `")]


def test_every_setting_the_readme_names_is_a_setting_of_its_block(make_nlp):
    block = make_nlp(initialize=False, kbs={"uniprot": {"labels": ["PROTEIN"]}}).config["components"]["nseen_linker"]
    rows = readme_settings_rows()
    assert len(rows) <= 15
    for names in rows:
        parent = names[0].split(".")[0] if "." in names[0] else None
        for name in names:
            path = name.split(".") if "." in name else ([parent, name] if parent else [name])
            if path[0] == "kbs":
                assert path[-1] in KNOWLEDGE_BASE_KEYS, name
            elif len(path) == 1:
                assert path[0] in TOP_LEVEL, name
            else:
                assert path[1] in block[path[0]], name
