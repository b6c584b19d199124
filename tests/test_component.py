import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin

import spacy_nseen
from spacy_nseen.component import NseenLinker
from spacy_nseen.errors import ArtifactError, NotInitializedError
from spacy_nseen.parts.kb_loaders import encoder_and_names, linker_directory, linker_directory_block

FIXTURES = Path(__file__).parent / "fixtures"


def spacy_nseen_file() -> str:
    return spacy_nseen.__file__
WORDS = ["FOXP2", "binds", "caffeine", "in", "cancer", "and", "PLCγ2"]
ENTS = [(0, 1, "PROTEIN"), (2, 3, "CHEMICAL"), (4, 5, "DISEASE"), (6, 7, "PROTEIN")]


def linked(doc: Doc):
    return [(ent.text, ent.label_, ent.kb_id_, ent._.kb_id, ent._.kb_score, ent._.kb_candidates) for ent in doc.ents]


@pytest.mark.slow
def test_add_pipe_without_importing_the_package():
    """The factory and the architecture are found through the entry points in setup.cfg."""
    code = textwrap.dedent(
        """
        import sys
        import spacy
        assert "spacy_nseen" not in sys.modules
        spacy.blank('en').add_pipe('nseen_linker')  # the command of the issue
        nlp = spacy.blank("en")
        pipe = nlp.add_pipe("nseen_linker")
        assert type(pipe).__name__ == "NseenLinker", type(pipe)
        assert "spacy_nseen" in sys.modules
        print(nlp.pipe_names, nlp.config["components"]["nseen_linker"]["encoder"]["@architectures"])
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert result.returncode == 0, result.stderr
    assert "['nseen_linker'] spacy_nseen.CharBiLSTMEncoder.v1" in result.stdout


def test_clear_error_before_initialize(make_nlp, make_doc):
    nlp = make_nlp(initialize=False)
    pipe = nlp.get_pipe("nseen_linker")
    assert not pipe.is_initialized
    with pytest.raises(NotInitializedError, match=r"nlp.initialize\(\).*\[initialize.components.nseen_linker.kb_loaders\]"):
        nlp(make_doc(nlp, WORDS, ENTS))
    with pytest.raises(NotInitializedError, match="uniprot"):
        nlp("no entities here")
    with pytest.raises(ValueError, match=r"no loader for the reference set\(s\) \['uniprot'.*kb_loaders.uniprot"):
        nlp.initialize()


def test_routing_labels_to_reference_sets(make_nlp, make_doc):
    nlp = make_nlp()
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    foxp2, caffeine, cancer, plc = doc.ents
    assert (foxp2.kb_id_, foxp2._.kb_id, foxp2._.kb_score) == ("UniProt:O15409", "UniProt:O15409", 1.0)
    assert (caffeine.kb_id_, caffeine._.kb_id) == ("CHEBI:27732", "CHEBI:27732")
    assert (plc.kb_id_, plc._.kb_id) == ("UniProt:P16885", "UniProt:P16885")
    assert all(c[0].startswith("UniProt:") for c in foxp2._.kb_candidates + plc._.kb_candidates)
    assert all(c[0].startswith("CHEBI:") for c in caffeine._.kb_candidates)
    # an unmapped label is left untouched
    assert (cancer.label_, cancer.kb_id_, cancer._.kb_id, cancer._.kb_score, cancer._.kb_candidates) == (
        "DISEASE", "", None, None, None)
    assert [e.label_ for e in doc.ents] == ["PROTEIN", "CHEMICAL", "DISEASE", "PROTEIN"]
    assert [(e.start, e.end) for e in doc.ents] == [(0, 1), (2, 3), (4, 5), (6, 7)]


def test_default_kbs_is_empty_so_nothing_is_added_to_a_users_mapping():
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("nseen_linker", config={"kbs": {"uniprot": {"labels": ["GENE"]}}})
    assert pipe.kbs == {"GENE": "uniprot"}
    with pytest.raises(NotInitializedError, match="kbs"):
        spacy.blank("en").add_pipe("nseen_linker")(spacy.blank("en")("x"))


def test_only_the_reference_sets_in_kbs_are_needed(make_nlp, make_doc):
    # a label mapped to "" is switched off
    nlp = make_nlp(kbs={"GENE": "uniprot", "PROTEIN": "", "CHEMICAL": ""})
    pipe = nlp.get_pipe("nseen_linker")
    assert pipe.kbs == {"GENE": "uniprot"} and pipe.kb_names == ["uniprot"]
    doc = nlp(make_doc(nlp, WORDS, [(0, 1, "GENE"), (2, 3, "CHEMICAL"), (6, 7, "PROTEIN")]))
    assert [e.kb_id_ for e in doc.ents] == ["UniProt:O15409", "", ""]
    assert [e._.kb_candidates is None for e in doc.ents] == [False, True, True]


def test_distinct_top_k_best_first(make_nlp, make_doc):
    nlp = make_nlp(top_k=4, mode="dense")
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    for ent in (doc.ents[0], doc.ents[1], doc.ents[3]):
        candidates = ent._.kb_candidates
        assert len(candidates) == 4
        ids = [kb_id for kb_id, _, _ in candidates]
        scores = [score for _, _, score in candidates]
        assert len(set(ids)) == 4 and scores == sorted(scores, reverse=True)
        assert ent._.kb_id == ids[0] and ent._.kb_score == scores[0]
        assert all(isinstance(c, tuple) and isinstance(c[2], float) for c in candidates)


def test_threshold(make_nlp, make_doc):
    nlp = make_nlp(threshold=1.01)
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    foxp2 = doc.ents[0]
    assert foxp2._.kb_id is None and foxp2.kb_id_ == ""
    assert foxp2._.kb_score == 1.0 and foxp2._.kb_candidates[0][0] == "UniProt:O15409"
    nlp = make_nlp(threshold=0.5)
    doc = nlp(make_doc(nlp, ["FOXP2", "zqxj"], [(0, 1, "PROTEIN"), (1, 2, "PROTEIN")]))
    assert doc.ents[0].kb_id_ == "UniProt:O15409"
    weak = doc.ents[1]
    if weak._.kb_score < 0.5:
        assert weak._.kb_id is None and weak.kb_id_ == ""
    else:
        assert weak._.kb_id == weak._.kb_candidates[0][0]


def test_unknown_characters_never_fail(make_nlp, make_doc):
    nlp = make_nlp()
    words = ["🧬", "αβγ-δ", "蛋白质", "a\x00b", "\x00", "e\u0301", "\U0010ffff", "ＦＯＸＰ２"]
    doc = nlp(make_doc(nlp, words, [(i, i + 1, "PROTEIN" if i % 2 else "CHEMICAL") for i in range(len(words))]))
    for ent in doc.ents[:7]:
        assert len(ent._.kb_candidates) == 5
        assert ent.kb_id_ == ent._.kb_id
    assert doc.ents[7].kb_id_ == "UniProt:O15409"  # full-width FOXP2 (NFKC exact match)
    # an exact match takes the exact_short_cut (on by default): only the exactly matching entities
    assert doc.ents[7]._.kb_candidates == [("UniProt:O15409", "FOXP2", 1.0)]
    text = "PLCγ2 🧬 蛋白质 \x00 Ω"
    assert nlp(text).text == text


def test_empty_docs_and_docs_without_entities(make_nlp, make_doc):
    nlp = make_nlp()
    assert len(nlp("")) == 0
    doc = nlp("FOXP2 binds caffeine")
    assert doc.ents == ()
    docs = list(nlp.pipe(["", "no entities", "  "]))
    assert [len(d.ents) for d in docs] == [0, 0, 0]
    mixed = [make_doc(nlp, WORDS, ENTS), make_doc(nlp, ["x"], []), Doc(nlp.vocab, words=[])]
    out = list(nlp.get_pipe("nseen_linker").pipe(mixed, batch_size=2))
    assert out[0].ents[0].kb_id_ == "UniProt:O15409" and out[1].ents == () and len(out[2]) == 0


def test_overwrite_false_keeps_an_existing_kb_id(make_nlp, make_doc):
    ents = [(0, 1, "PROTEIN", "MY:1"), (6, 7, "PROTEIN")]
    nlp = make_nlp(overwrite=False)
    doc = nlp(make_doc(nlp, WORDS, ents))
    assert doc.ents[0].kb_id_ == "MY:1" and doc.ents[0]._.kb_candidates is None
    assert doc.ents[1].kb_id_ == "UniProt:P16885"
    nlp = make_nlp(overwrite=True)
    doc = nlp(make_doc(nlp, WORDS, ents))
    assert doc.ents[0].kb_id_ == "UniProt:O15409"


def test_ent_kb_id_and_docbin_carry_the_id(make_nlp, make_doc):
    nlp = make_nlp()
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    assert [t.ent_kb_id_ for t in doc] == ["UniProt:O15409", "", "CHEBI:27732", "", "", "", "UniProt:P16885"]
    data = DocBin(docs=[doc]).to_bytes()
    [restored] = DocBin().from_bytes(data).get_docs(spacy.blank("en").vocab)
    assert [(e.text, e.label_, e.kb_id_) for e in restored.ents] == [(e.text, e.label_, e.kb_id_) for e in doc.ents]
    with_user_data = DocBin(docs=[doc], store_user_data=True).to_bytes()
    [restored] = DocBin().from_bytes(with_user_data).get_docs(nlp.vocab)
    restored_candidates = [[tuple(c) for c in e._.kb_candidates or []] for e in restored.ents]
    assert restored_candidates == [e._.kb_candidates or [] for e in doc.ents]
    assert [e._.kb_id for e in restored.ents] == [e._.kb_id for e in doc.ents]


def test_disk_round_trip(make_nlp, make_doc, tmp_path):
    nlp = make_nlp(top_k=3)
    before = linked(nlp(make_doc(nlp, WORDS, ENTS)))
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.config["components"]["nseen_linker"] == nlp.config["components"]["nseen_linker"]
    assert loaded.get_pipe("nseen_linker").top_k == 3
    assert linked(loaded(make_doc(loaded, WORDS, ENTS))) == before
    assert before[0][2] == "UniProt:O15409"


def test_bytes_round_trip(make_nlp, make_doc):
    nlp = make_nlp(mode="dense")
    before = linked(nlp(make_doc(nlp, WORDS, ENTS)))
    pipe_bytes = nlp.get_pipe("nseen_linker").to_bytes()
    fresh = make_nlp(initialize=False, mode="dense")
    fresh.get_pipe("nseen_linker").from_bytes(pipe_bytes)
    assert linked(fresh(make_doc(fresh, WORDS, ENTS))) == before
    whole = make_nlp(initialize=False, mode="dense").from_bytes(nlp.to_bytes())
    assert linked(whole(make_doc(whole, WORDS, ENTS))) == before


def test_pickling_the_pipe(make_nlp, make_doc):
    nlp = make_nlp()
    pipe = nlp.get_pipe("nseen_linker")
    doc = make_doc(nlp, WORDS, ENTS)
    before = linked(pipe(doc))
    clone = pickle.loads(pickle.dumps(pipe))
    assert isinstance(clone, NseenLinker) and clone.is_initialized and clone.linkers is not pipe.linkers
    assert linked(clone(make_doc(nlp, WORDS, ENTS))) == before
    uninitialized = pickle.loads(pickle.dumps(make_nlp(initialize=False).get_pipe("nseen_linker")))
    assert not uninitialized.is_initialized


def test_missing_linker_directory_on_load(make_nlp, tmp_path):
    import shutil

    make_nlp().to_disk(tmp_path / "pipeline")
    shutil.rmtree(tmp_path / "pipeline" / "nseen_linker" / "kb_chebi")
    with pytest.raises(ArtifactError, match="kb_chebi"):
        spacy.load(tmp_path / "pipeline")


def test_initialize_with_encoders_and_reference_sets(make_nlp, make_doc, linker_dirs):
    """The second loader, spacy_nseen.EncoderAndNames.v1: the index is built at initialize."""
    nlp = make_nlp(initialize=False)
    encoder = str(linker_dirs["encoder"])
    names = {"uniprot": FIXTURES / "toy_reference.tsv", "chebi": FIXTURES / "toy_chebi.tsv"}
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {
            kb: {"@misc": "spacy_nseen.EncoderAndNames.v1", "encoder": encoder, "reference_set": str(path)}
            for kb, path in names.items()
        }
    }
    nlp.initialize()
    pipe = nlp.get_pipe("nseen_linker")
    assert pipe.is_initialized and len(pipe.linkers["chebi"].reference_set) == 11
    doc = nlp(make_doc(nlp, WORDS, ENTS))
    expected = make_nlp()(make_doc(nlp, WORDS, ENTS))
    assert [e.kb_id_ for e in doc.ents] == [e.kb_id_ for e in expected.ents]
    assert [[c[0] for c in e._.kb_candidates or []] for e in doc.ents] == [
        [c[0] for c in e._.kb_candidates or []] for e in expected.ents]


def test_initialize_with_a_missing_reference_set_names_the_file(make_nlp, linker_dirs, tmp_path):
    nlp = make_nlp(initialize=False, kbs={"PROTEIN": "uniprot"})
    with pytest.raises(ArtifactError, match="reference set file not found") as err:
        nlp.get_pipe("nseen_linker").initialize(
            kb_loaders={"uniprot": encoder_and_names(linker_dirs["encoder"], tmp_path / "no.tsv")})
    assert err.value.path == tmp_path / "no.tsv"


@pytest.mark.slow
def test_spacy_assemble(make_nlp, make_doc, linker_dirs, tmp_path):
    """`spacy assemble` builds the pipeline from the config alone (one reference set per form)."""
    nlp = make_nlp(initialize=False)
    nlp.config["initialize"]["components"]["nseen_linker"] = {
        "kb_loaders": {
            "uniprot": linker_directory_block(linker_dirs["uniprot"]),
            "chebi": {"@misc": "spacy_nseen.EncoderAndNames.v1", "encoder": str(linker_dirs["encoder"]),
                      "reference_set": str(FIXTURES / "toy_chebi.tsv")},
        },
    }
    nlp.config.to_disk(tmp_path / "config.cfg")
    # The subprocess imports this checkout's spacy_nseen (as this process does), not whatever an editable
    # install elsewhere points at.
    root = str(Path(spacy_nseen_file()).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH", "")]))}
    result = subprocess.run(
        [sys.executable, "-m", "spacy", "assemble", str(tmp_path / "config.cfg"), str(tmp_path / "assembled")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assembled = spacy.load(tmp_path / "assembled")
    doc = assembled(make_doc(assembled, WORDS, ENTS))
    assert [e.kb_id_ for e in doc.ents] == ["UniProt:O15409", "CHEBI:27732", "", "UniProt:P16885"]


def test_config_validation():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="query_form"):
        nlp.add_pipe("nseen_linker", config={"ranker": {"@misc": "spacy_nseen.HybridRanker.v1", "query_form": "klingon"}})
    with pytest.raises(ValueError, match="mode"):  # 0.1.0's flat settings: spaCy's validation names them
        nlp.add_pipe("nseen_linker", config={"mode": "sparse"})
    with pytest.raises(ValueError, match="upgrade-config"):
        nlp.add_pipe("nseen_linker", config={"kbs": {"PROTEIN": "uniprot"}})
    with pytest.raises(ValueError, match="top_k"):
        nlp.add_pipe("nseen_linker", config={"top_k": 0})
    empty = nlp.add_pipe("nseen_linker", name="empty", config={"kbs": {}})
    with pytest.raises(ValueError, match="kbs"):
        empty.initialize(lambda: [], nlp=nlp)
    with pytest.raises(Exception, match="top_k"):
        nlp.add_pipe("nseen_linker", config={"top_k": "many"})


def test_initialize_rejects_unknown_reference_sets(make_nlp, linker_dirs):
    nlp = make_nlp(initialize=False)
    with pytest.raises(ValueError, match=r"\['drugbank'\]"):
        nlp.get_pipe("nseen_linker").initialize(kb_loaders={"drugbank": linker_directory(linker_dirs["chebi"])})


def test_an_uninitialized_pipeline_round_trips_uninitialized(make_nlp, make_doc, tmp_path):
    make_nlp(initialize=False).to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert not loaded.get_pipe("nseen_linker").is_initialized
    with pytest.raises(NotInitializedError):
        loaded(make_doc(loaded, WORDS, ENTS))
    (tmp_path / "pipeline" / "nseen_linker" / "cfg").write_text("{broken")
    with pytest.raises(ArtifactError, match="not a valid nseen_linker config"):
        spacy.load(tmp_path / "pipeline")


def test_kb_settings_change_one_reference_set_only(make_nlp, tmp_path):
    nlp = make_nlp(kb_settings={"chebi": {"fuzzy_weight": 0.2, "sparse_weight": 0.4, "token_weight": 0.1}})
    pipe = nlp.get_pipe("nseen_linker")
    chebi, uniprot = pipe.linkers["chebi"].settings, pipe.linkers["uniprot"].settings
    assert (chebi.fuzzy_weight, chebi.sparse_weight, chebi.token_weight) == (0.2, 0.4, 0.1)
    assert uniprot == pipe.settings  # the component's own settings
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline").get_pipe("nseen_linker")
    assert loaded.linkers["chebi"].settings == chebi and loaded.linkers["uniprot"].settings == uniprot


HYBRID = "spacy_nseen.HybridRanker.v1"


@pytest.mark.parametrize("ranker,message", [
    ({"@misc": HYBRID, "fuzzy_wieght": 0.2}, "ranker -> fuzzy_wieght"),  # by spaCy's config validation
    ({"@misc": HYBRID, "fuzzy_weight": 2.0}, "ranker: fuzzy_weight"),
    ({"@misc": HYBRID, "query_form": "klingon"}, "ranker -> query_form"),
    ({"fuzzy_weight": 0.2}, "kbs.chebi.ranker must be a registered ranker block"),
])
def test_a_bad_ranker_of_one_set_fails_when_the_pipe_is_created(make_nlp, ranker, message):
    kbs = {"uniprot": {"labels": ["PROTEIN"]}, "chebi": {"labels": ["CHEMICAL"], "ranker": ranker}}
    with pytest.raises(ValueError, match=message):
        make_nlp(initialize=False, kbs=kbs)


def test_expand_abbreviations_links_a_short_form_through_its_long_form(make_nlp, make_doc):
    words = ["cells", "treated", "with", "rapamycin", "(", "RPM", ")", ";", "RPM", "blocks", "mTOR"]
    plain = make_nlp(expand_abbreviations=False)
    expanding = make_nlp()  # on by default
    doc = make_doc(plain, words, [(8, 9, "CHEMICAL")])
    assert plain(doc).ents[0].kb_id_ != "CHEBI:9753"  # "RPM" alone is no ChEBI name
    doc = make_doc(expanding, words, [(8, 9, "CHEMICAL")])
    assert expanding(doc).ents[0].kb_id_ == "CHEBI:9753"  # searched as "rapamycin"
    doc = make_doc(expanding, ["RPM", "blocks", "mTOR"], [(0, 1, "CHEMICAL")])
    assert expanding(doc).ents[0].text == "RPM"  # no definition in the doc: linked as written


def test_a_short_form_defined_in_another_caption_of_the_article_is_linked_through_its_long_form(make_nlp, make_doc):
    nlp = make_nlp()
    doc = make_doc(nlp, ["RPM", "blocks", "mTOR"], [(0, 1, "CHEMICAL")])
    assert nlp(doc).ents[0].kb_id_ != "CHEBI:9753"
    doc = make_doc(nlp, ["RPM", "blocks", "mTOR"], [(0, 1, "CHEMICAL")])
    doc._.article_texts = ["Figure 1. Cells treated with rapamycin (RPM) for 2 h.", "Figure 2. Western blots."]
    assert nlp(doc).ents[0].kb_id_ == "CHEBI:9753"  # the article's definition is read, as organism evidence is
    doc = make_doc(nlp, ["RPM", "blocks", "mTOR"], [(0, 1, "CHEMICAL")])
    doc._.figure_texts = ["Panel B: rapamycin (RPM) for 2 h."]
    assert nlp(doc).ents[0].kb_id_ == "CHEBI:9753"


def test_the_abbreviation_lexicon_links_a_short_form_no_text_defines_and_is_saved(make_nlp, make_doc, linker_dirs,
                                                                                 tmp_path):
    from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon

    AbbreviationLexicon({"CAF": ("caffeine", 3, 4), "RPM": ("caffeine", 2, 3)}).to_disk(tmp_path / "lexicon.json")
    nlp = make_nlp()
    pipe = nlp.get_pipe("nseen_linker")
    words, ents = ["CAF", "and", "RPM", "block", "mTOR"], [(0, 1, "CHEMICAL"), (2, 3, "CHEMICAL")]
    assert [e.kb_id_ for e in nlp(make_doc(nlp, words, ents)).ents] != ["CHEBI:27732"] * 2
    pipe.initialize(kb_loaders={kb: linker_directory(linker_dirs[kb]) for kb in pipe.kb_names}, abbreviations=str(tmp_path / "lexicon.json"))
    linked = nlp(make_doc(nlp, words, ents)).ents
    assert [e.kb_id_ for e in linked] == ["CHEBI:27732"] * 2  # searched as "caffeine"
    assert [e._.kb_searched for e in linked] == ["caffeine", "caffeine"]  # what was searched, for the reader
    doc = make_doc(nlp, words, ents)
    doc._.article_texts = ["Cells treated with rapamycin (RPM)."]
    assert [e.kb_id_ for e in nlp(doc).ents] == ["CHEBI:27732", "CHEBI:9753"]  # the article's definition wins
    assert [e._.kb_searched for e in doc.ents] == ["caffeine", "rapamycin"]
    nlp.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / "nseen_linker" / "abbreviations.json").exists()
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("nseen_linker").abbreviation_lexicon.get("CAF") == "caffeine"
    assert [e.kb_id_ for e in loaded(make_doc(loaded, words, ents)).ents] == ["CHEBI:27732"] * 2
    assert pickle.loads(pickle.dumps(pipe)).abbreviation_lexicon.get("CAF") == "caffeine"
    nlp_off = make_nlp(expand_abbreviations=False)
    nlp_off.get_pipe("nseen_linker").abbreviation_lexicon = pipe.abbreviation_lexicon
    plain = nlp_off(make_doc(nlp_off, words, ents)).ents
    assert [e.kb_id_ for e in plain] != ["CHEBI:27732"] * 2 and [e._.kb_searched for e in plain] == [None, None]


def test_article_docs_give_a_pipeline_the_context_of_the_article(make_nlp):
    from spacy.tokens import Span

    from spacy_nseen import article_docs

    nlp = make_nlp()
    docs = article_docs(nlp, ["Cells treated with rapamycin (RPM) for 2 h.", "RPM blocks mTOR"])
    docs[1].ents = [Span(docs[1], 0, 1, label="CHEMICAL")]  # as the NER would find it
    assert [d.ents[0].kb_id_ for d in nlp.pipe(docs) if d.ents] == ["CHEBI:9753"]


def test_an_article_read_once_links_as_the_lists_of_the_other_texts_do(make_nlp):
    from spacy.tokens import Span

    from spacy_nseen import article_docs

    nlp = make_nlp()
    texts = ["Mouse cells treated with rapamycin (RPM).", "RPM blocks TP53 in mice", "B, TP53 and RPM in HeLa cells"]
    figures = [None, "Figure 2", "Figure 2"]

    def linked(docs):
        for doc in docs:
            doc.ents = [Span(doc, i, i + 1, label="CHEMICAL" if t.text == "RPM" else "PROTEIN")
                        for i, t in enumerate(doc) if t.text in ("RPM", "TP53")]
        return [(e.kb_id_, e._.kb_taxon, e._.kb_score) for d in nlp.pipe(docs) for e in d.ents]

    once = linked(article_docs(nlp, texts, figures))
    by_lists = article_docs(nlp, texts, figures)
    for doc in by_lists:  # the lists of the other texts, set on each doc: the context read again per doc
        doc._.article_texts, doc._.figure_texts = list(doc._.article_texts), doc._.figure_texts
    assert once == linked(by_lists) and once[0][0] == once[1][0] == "CHEBI:9753"


def test_a_doc_whose_article_does_not_hold_its_text_is_a_clear_error(make_nlp, make_doc):
    nlp = make_nlp()
    doc = make_doc(nlp, ["RPM", "blocks", "mTOR"], [(0, 1, "CHEMICAL")])
    doc._.article = {"texts": ["another text"], "index": 0}
    with pytest.raises(ValueError, match=r"doc._.article\['texts'\]\[0\] is not the doc's text"):
        nlp(doc)
    doc._.article = {"texts": ["RPM blocks mTOR"], "index": 3}
    with pytest.raises(ValueError, match="not a place in its 1 texts"):
        nlp(doc)


def test_kb_url_templates_give_each_reference_set_its_entry_pages(make_nlp, make_doc, tmp_path):
    from spacy import displacy

    nlp = make_nlp(kb_url_templates={"chebi": "https://www.ebi.ac.uk/chebi/searchId.do?chebiId={}"})
    pipe = nlp.get_pipe("nseen_linker")
    doc = nlp(make_doc(nlp, ["rapamycin", "and", "TP53"], [(0, 1, "CHEMICAL"), (2, 3, "PROTEIN")]))
    chemical, protein = doc.ents
    assert pipe.kb_url(chemical.kb_id_, "CHEMICAL") == f"https://www.ebi.ac.uk/chebi/searchId.do?chebiId={chemical.kb_id_}"
    assert pipe.kb_url(protein.kb_id_, "PROTEIN") == f"https://identifiers.org/{protein.kb_id_}"  # the default
    html = displacy.render(pipe.displacy_data(doc), style="ent", manual=True)
    assert f"chebiId={chemical.kb_id_}" in html and f"identifiers.org/{protein.kb_id_}" in html
    nlp.to_disk(tmp_path / "pipeline")
    assert spacy.load(tmp_path / "pipeline").get_pipe("nseen_linker").kb_url_templates == pipe.kb_url_templates


def test_a_kb_url_template_without_a_placeholder_fails_when_the_pipe_is_created(make_nlp):
    kbs = {"uniprot": {"labels": ["PROTEIN"]}, "chebi": {"labels": ["CHEMICAL"], "url_template": "https://example.org/"}}
    with pytest.raises(ValueError, match="kbs.chebi.url_template must contain"):
        make_nlp(initialize=False, kbs=kbs)


def test_add_names_reaches_the_linker_and_is_saved_with_the_pipeline(make_nlp, make_doc, tmp_path):
    nlp = make_nlp()
    pipe = nlp.get_pipe("nseen_linker")
    words, ents = ["Zorblaxin-62", "and", "TP53"], [(0, 1, "PROTEIN"), (2, 3, "PROTEIN")]
    before = nlp(make_doc(nlp, words, ents))
    assert pipe.add_names("uniprot", [("UniProt:Q13501", "Zorblaxin-62", "discovered")], "captions") == 1
    after = nlp(make_doc(nlp, words, ents))
    assert [e.kb_id_ for e in after.ents] == ["UniProt:Q13501", before.ents[1].kb_id_]
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    again = loaded(make_doc(loaded, words, ents))
    assert [(e.kb_id_, e._.kb_score) for e in again.ents] == [(e.kb_id_, e._.kb_score) for e in after.ents]
    assert loaded.get_pipe("nseen_linker").linkers["uniprot"].names_metadata()["sources"] == {"captions": 1}
    with pytest.raises(ValueError, match="no linker for 'hgnc'"):
        pipe.add_names("hgnc", [], "x")
