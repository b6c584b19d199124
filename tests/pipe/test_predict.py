"""The one predict path (`spacy_nseen.pipe.predict`): abbreviations → organisms → link → decision, as the
component runs it."""
import pytest
import spacy
from multi_organism_rows import HUMAN, MOUSE, ROWS, TAXA

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.linker.nil_decision import FEATURES, NilModel
from spacy_nseen.linker.settings import LinkerSettings
from spacy_nseen.organisms.assign import OrganismAssigner
from spacy_nseen.parts.decision import LinkDecision
from spacy_nseen.pipe.predict import Mention, link_requests, prepare_requests, request_features
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.text.abbreviation_lexicon import AbbreviationLexicon

TEXT = "Mouse embryos express cell division cycle 42 (Cdc42). Cdc42 and TP53 were stained."


@pytest.fixture(scope="module")
def multi(toy_encoder) -> KnowledgeBaseLinker:
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(ROWS, TAXA), n_trees=5, seed=0)
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")], weights[FEATURES.index("exact")] = -4.0, 8.0
    linker.nil_model = NilModel(weights)
    return linker


def mentions_of(*words: str):
    return [Mention(TEXT.rindex(w), TEXT.rindex(w) + len(w), w, "uniprot") for w in words]


def test_an_abbreviation_gets_its_long_form_and_organisms_are_assigned():
    prepared = prepare_requests(TEXT, mentions_of("Cdc42", "TP53"), lambda kb: True, OrganismAssigner())
    assert [r.text for r in prepared.requests] == ["Cdc42", "TP53"]
    assert [r.long_form for r in prepared.requests] == ["cell division cycle 42", None]
    assert prepared.organisms and prepared.organisms[0] == MOUSE
    assert prepared.requests[0].context.taxon == MOUSE and prepared.requests[0].evidence
    plain = prepare_requests(TEXT, mentions_of("Cdc42"), lambda kb: False, OrganismAssigner(), expand_abbreviations=False)
    assert plain.requests[0].text == "Cdc42" and plain.requests[0].context is None and plain.organisms is None
    assert plain.requests[0].long_form is None


def test_a_short_form_defined_in_another_caption_of_the_article_gets_its_long_form():
    text = "TP53 and HSP27 were stained."
    mentions = [Mention(9, 14, "HSP27", "uniprot"), Mention(0, 4, "TP53", "uniprot")]
    article = ["Heat shock protein 27 (HSP27) was knocked down.", "Cells without tumor protein p53 (TP53)."]
    prepared = prepare_requests(text, mentions, lambda kb: False, None, article_texts=article)
    assert [r.long_form for r in prepared.requests] == ["Heat shock protein 27", "tumor protein p53"]
    alone = prepare_requests(text, mentions, lambda kb: False, None)
    assert [r.long_form for r in alone.requests] == [None, None]


def test_a_short_form_no_text_defines_gets_the_lexicon_s_long_form_and_a_definition_wins():
    lexicon = AbbreviationLexicon({"HSP27": ("heat shock protein beta-1", 5, 6), "TP53": ("tumour p53", 2, 3)})
    text = "TP53 and HSP27 were stained."
    mentions = [Mention(9, 14, "HSP27", "uniprot"), Mention(0, 4, "TP53", "uniprot")]
    article = ["Cells without tumor protein p53 (TP53)."]
    prepared = prepare_requests(text, mentions, lambda kb: False, None, article_texts=article, lexicon=lexicon)
    assert [r.long_form for r in prepared.requests] == ["heat shock protein beta-1", "tumor protein p53"]
    off = prepare_requests(text, mentions, lambda kb: False, None, lexicon=lexicon, expand_abbreviations=False)
    assert [r.long_form for r in off.requests] == [None, None]


def test_link_requests_searches_the_long_form_unless_the_mention_is_a_name_and_it_is_not(multi):
    text = "tumor antigen p53 (TP53) and CDC42 (C42); TP53 and C42."
    mentions = [Mention(42, 46, "TP53", "uniprot"), Mention(51, 54, "C42", "uniprot")]
    requests = prepare_requests(text, mentions, lambda kb: True, OrganismAssigner()).requests
    assert [r.long_form for r in requests] == ["tumor antigen p53", "CDC42"]
    linked = link_requests(multi, requests, top_k=3)
    assert [link.searched for link in linked] == ["TP53", "CDC42"]  # TP53 is a name and its long form is not; C42 is none
    # both names: the author's definition decides
    assert multi.searched_form("TP53", "cellular tumor antigen p53") == "cellular tumor antigen p53"
    assert multi.searched_form("TP53") == "TP53"


def test_a_tag_name_takes_no_guessed_long_form_where_tag_names_are_never_linked(multi):
    # the lexicon's long form for `MBP` is a name of the set; `MBP` in `MBP-p53` is the maltose-binding tag
    lexicon = AbbreviationLexicon({"MBP": ("Cellular tumor antigen p53", 5, 6)})
    text = "MBP pull-down of p53."
    requests = prepare_requests(text, [Mention(0, 3, "MBP", "uniprot")], lambda kb: True, None, lexicon=lexicon).requests
    assert requests[0].long_form == "Cellular tumor antigen p53" and requests[0].guessed
    never = multi.with_settings(LinkerSettings(link_tag_names=False))
    off, on = link_requests(never, requests, top_k=3, decision=LinkDecision(0.5))[0], link_requests(multi, requests, top_k=3)[0]
    assert off.searched == "MBP" and not off.verdict.keep  # the tag rule reads the mention as written
    assert on.searched == "Cellular tumor antigen p53"  # where tag names may be linked, the guess is searched
    # an author's definition is no guess: it is searched also where tag names are never linked
    defined = "Maltose binding protein (MBP) was stained; MBP was pulled down."
    requests = prepare_requests(defined, [Mention(43, 46, "MBP", "uniprot")], lambda kb: True, None, lexicon=lexicon).requests
    assert requests[0].long_form == "Maltose binding protein" and not requests[0].guessed
    assert link_requests(never, requests, top_k=3)[0].searched == "Maltose binding protein"


def test_without_an_assigner_only_the_allowed_organisms_restrict():
    prepared = prepare_requests(TEXT, mentions_of("TP53"), lambda kb: True, None, allowed=frozenset({HUMAN}))
    context = prepared.requests[0].context
    assert prepared.organisms is None and context.taxon is None and context.allowed == frozenset({HUMAN})


def test_link_requests_is_the_linker_and_its_decision(multi):
    requests = prepare_requests(TEXT, mentions_of("Cdc42", "TP53"), lambda kb: True, OrganismAssigner()).requests
    linked = link_requests(multi, requests, top_k=3, decision=LinkDecision(0.5))
    texts, contexts = [multi.searched_form(r.text, r.long_form) for r in requests], [r.context for r in requests]
    assert [link.candidates for link in linked] == multi.link(texts, top_k=3, organisms=contexts)
    probabilities = multi.link_probabilities(texts, [link.candidates for link in linked], contexts)
    assert [link.verdict.probability for link in linked] == [float(p) for p in probabilities]
    assert [link.verdict.keep for link in linked] == [p >= 0.5 for p in probabilities]
    assert request_features(multi, linked).shape == (2, len(FEATURES))
    assert link_requests(multi, [], top_k=3) == [] and request_features(multi, []).shape == (0, len(FEATURES))


def test_the_component_links_as_the_predict_path(multi, toy_encoder_block):
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("nseen_linker", config={"kbs": {"uniprot": {"labels": ["PROTEIN"]}}, "encoder": toy_encoder_block,
                                                "decision": {"@misc": "spacy_nseen.NilDecision.v1", "threshold": 0.5}})
    pipe.add_linker(multi)
    doc = nlp.make_doc(TEXT)
    doc.ents = [doc.char_span(m.start, m.end, label="PROTEIN") for m in mentions_of("Cdc42", "TP53")]
    expected = link_requests(multi, prepare_requests(TEXT, mentions_of("Cdc42", "TP53"), lambda kb: True,
                                                     pipe.organism_assigner).requests, top_k=5, decision=LinkDecision(0.5))
    ents = nlp(doc).ents
    assert [e._.kb_candidates for e in ents] == [[(c.kb_id, c.name, float(c.score)) for c in link.candidates] for link in expected]
    assert [e._.kb_score for e in ents] == [link.verdict.score for link in expected]
    assert [e._.kb_id for e in ents] == [link.candidates[0].kb_id if link.verdict.keep else None for link in expected]


def test_a_mention_cut_from_a_token_reads_the_organism_of_the_whole_token():
    # `Tau` that nseen_glued_names cut from `hTau`: human, as `hTau` was before the cut; uncut, the caption's mice
    text = "Brains of transgenic mice. Blots of hTau and of Tau."
    glued, alone = text.index("Tau"), text.rindex("Tau")
    mentions = [Mention(glued, glued + 3, "Tau", "uniprot", "hTau"), Mention(alone, alone + 3, "Tau", "uniprot")]
    prepared = prepare_requests(text, mentions, lambda kb: True, OrganismAssigner())
    assert [r.context.taxon for r in prepared.requests] == [HUMAN, MOUSE]
    assert prepared.requests[0].evidence[0] == "prefix 'h' in 'hTau' → 9606"
