"""Bad input through the full pipeline and through the `nseen_linker` alone (issue 7).

Every case has a defined result (see docs/guarantees.md):
- NO_ENTITY: the doc has no token, so no entity; nothing is written.
- BLANK: a mention that is only whitespace (`str.strip()` leaves nothing) is asked for but gets no
  candidate: `_.kb_id is None`, `_.kb_score is None`, `_.kb_candidates == []`, `ent.kb_id_ == ""`.
- WELL_FORMED: any other mention gets 1..top_k candidates `(kb_id, name, score)` of distinct entities of
  the label's reference set, scores finite, in [-1, 1], non-increasing; it is linked to the first one
  when its score reaches `threshold`, else unlinked (`_.kb_id is None`).
- exact (a CURIE): a mention whose normalised form is a reference name is linked to it with score 1.0.
"""
import math
import time
import unicodedata
from typing import Dict

import numpy
import pytest
from rel_support import TINY_ENCODER, doc_with_ents, make_pipeline
from spacy.language import Language
from spacy.tokens import Doc, Span

NO_ENTITY = "no entity"
BLANK = "blank"
WELL_FORMED = "well-formed"
PLCG2 = "UniProt:P16885"
WATER = "CHEBI:15377"
MAX_LENGTH = int(TINY_ENCODER["max_length"])
TOP_K = 5


def replace_lone_surrogates(text: str) -> str:
    """What a caller does before spaCy's tokenizer (which refuses lone surrogates): each becomes U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


CASES = {
    # -- nothing at all
    "empty": ("", NO_ENTITY),
    # -- whitespace only
    "space": (" ", BLANK),
    "spaces": ("     ", BLANK),
    "tab": ("\t", BLANK),
    "newlines": ("\n\n", BLANK),
    "crlf": ("\r\n", BLANK),
    "all_ascii_whitespace": (" \t\n\r\x0b\x0c ", BLANK),
    "no_break_space": ("\u00a0", BLANK),
    "ideographic_space": ("\u3000", BLANK),
    "em_space": ("\u2003", BLANK),
    "line_separator": ("\u2028", BLANK),
    "next_line_c1": ("\x85", BLANK),
    # -- invisible, control and odd code points (not whitespace: encoded like any string)
    "zero_width_space": ("\u200b", WELL_FORMED),
    "byte_order_mark": ("\ufeff", WELL_FORMED),
    "nul": ("\x00", WELL_FORMED),
    "nul_inside_name": ("PLC\x00G2", WELL_FORMED),
    "c0_controls_ansi_escape": ("\x01\x02\x03\x1b[31m", WELL_FORMED),
    "bell_backspace": ("\x07\x08", WELL_FORMED),
    "delete": ("\x7f", WELL_FORMED),
    "c1_controls": ("\x80\x9f", WELL_FORMED),
    "replacement_character": ("\ufffd", WELL_FORMED),
    "lone_high_surrogate_replaced": (replace_lone_surrogates("\ud800"), WELL_FORMED),
    "lone_low_surrogate_in_name_replaced": (replace_lone_surrogates("PLC\udfffG2"), WELL_FORMED),
    "private_use": ("\ue000\U000f0000", WELL_FORMED),
    "noncharacter": ("\uffff\U0010ffff", WELL_FORMED),
    # -- emoji
    "emoji": ("\U0001f9ec", WELL_FORMED),
    "emoji_zwj_sequence": ("\U0001f469\u200d\U0001f52c", WELL_FORMED),
    "emoji_flag": ("\U0001f1fa\U0001f1f8", WELL_FORMED),
    "emoji_skin_tone": ("\U0001f44d\U0001f3fd", WELL_FORMED),
    "emoji_after_name": ("PLCG2\U0001f9ec", WELL_FORMED),
    # -- right-to-left and mixed scripts
    "hebrew": ("חלבון", WELL_FORMED),
    "arabic": ("بروتين كيناز", WELL_FORMED),
    "latin_then_arabic": ("PLCG2 بروتين", WELL_FORMED),
    "rtl_override": ("\u202ePLCG2\u202c", WELL_FORMED),
    "bidi_marks": ("\u200fPLCG2\u200e", WELL_FORMED),
    "chinese": ("蛋白激酶", WELL_FORMED),
    "hangul": ("단백질", WELL_FORMED),
    "devanagari": ("प्रोटीन", WELL_FORMED),
    "thai": ("โปรตีน", WELL_FORMED),
    "cyrillic_homoglyphs": ("РLСG2", WELL_FORMED),
    # -- combining characters
    "combining_marks_on_name": ("PLCG2\u0301\u0301", WELL_FORMED),
    "combining_marks_only": ("\u0301\u0308\u0327", WELL_FORMED),
    "decomposed_accent": ("cafe\u0301ine", WELL_FORMED),
    "zalgo": ("P" + "\u0336" * 200 + "LCG2", WELL_FORMED),
    # -- punctuation only, digits only, injection-looking strings
    "punctuation": ("!?.,;:", WELL_FORMED),
    "dashes": ("-\u2013\u2014\u2212", WELL_FORMED),
    "brackets": ("()[]{}<>", WELL_FORMED),
    "quotes_backslashes": ("'\"\\`", WELL_FORMED),
    "format_string": ("%s %d {0} {}", WELL_FORMED),
    "markup": ("<b>PLCG2</b>", WELL_FORMED),
    "path": ("../../etc/passwd", WELL_FORMED),
    "digit": ("0", WELL_FORMED),
    "digits": ("12345", WELL_FORMED),
    "digits_1000": ("9" * 1000, WELL_FORMED),
    "arabic_indic_digits": ("١٢٣", WELL_FORMED),
    "superscript_digits": ("²³", WELL_FORMED),
    "single_letter": ("a", WELL_FORMED),
    # -- overlong mentions (encoded from their first max_length characters)
    "one_token_100k_chars": ("A" * 100_000, WELL_FORMED),
    "many_tokens_100k_chars": (("PLCG2 " * 16_667)[:100_000], WELL_FORMED),
    "greek_100k_chars": ("\u03b3" * 100_000, WELL_FORMED),
    "punctuation_tokens_10k": (". " * 5_000, WELL_FORMED),
    # -- odd forms of a real name: linked exactly, score 1.0
    "exact_name": ("PLCG2", PLCG2),
    "case_folded": ("plcg2", PLCG2),
    "padded_with_spaces": ("  PLCG2  ", PLCG2),
    "fullwidth": ("ＰＬＣＧ２", PLCG2),
    "mathematical_bold": ("\U0001d40f\U0001d40b\U0001d402\U0001d406\U0001d7d0", PLCG2),
    "unicode_hyphens": ("PLC\u2010gamma\u20102", PLCG2),
    "greek_letter_in_name": ("PLC\u03b32", PLCG2),
    "capital_greek_letter_in_name": ("PLC\u03932", PLCG2),
}
# Every Greek letter, lower and upper case (final sigma too), alone and inside a name.
GREEK = [chr(c) for c in range(0x391, 0x3AA) if c != 0x3A2] + [chr(c) for c in range(0x3B1, 0x3CA)]


def assert_well_formed(ent: Span, reference_ids: set, threshold: float = 0.0) -> None:
    candidates = ent._.kb_candidates
    assert isinstance(candidates, list) and 1 <= len(candidates) <= TOP_K, candidates
    kb_ids = [c[0] for c in candidates]
    assert len(set(kb_ids)) == len(kb_ids), "candidates are distinct entities"
    assert set(kb_ids) <= reference_ids
    scores = [c[2] for c in candidates]
    for kb_id, name, score in candidates:
        assert isinstance(kb_id, str) and isinstance(name, str) and name
        assert isinstance(score, float) and math.isfinite(score) and -1.0 - 1e-6 <= score <= 1.0
    assert scores == sorted(scores, reverse=True), "best first"
    assert ent._.kb_score == scores[0]
    expected = kb_ids[0] if scores[0] >= threshold else None
    assert ent._.kb_id == expected
    assert ent.kb_id_ == (expected or "")
    assert all(token.ent_kb_id_ == ent.kb_id_ for token in ent)


def assert_blank(ent: Span) -> None:
    assert ent._.kb_id is None and ent._.kb_score is None and ent._.kb_candidates == []
    assert ent.kb_id_ == ""


def assert_result(ent: Span, expected: str, reference_ids: set) -> None:
    if expected == BLANK:
        assert_blank(ent)
        return
    assert_well_formed(ent, reference_ids)
    if expected != WELL_FORMED:
        assert (ent._.kb_id, ent._.kb_score) == (expected, 1.0)


@pytest.fixture(scope="module")
def reference_ids(rel_linkers) -> Dict[str, set]:
    return {label: set(rel_linkers[kb].reference_set.kb_ids) for label, kb in (("PROTEIN", "uniprot"), ("CHEMICAL", "chebi"))}


@pytest.mark.parametrize("text,expected", list(CASES.values()), ids=list(CASES))
def test_full_pipeline(rel_nlp: Language, reference_ids, text: str, expected: str):
    """Tokenizer → the whole text as one PROTEIN entity → nseen_linker."""
    doc = rel_nlp(text)
    assert doc.text == text
    if expected == NO_ENTITY:
        assert doc.ents == ()
        return
    (ent,) = doc.ents
    assert_result(ent, expected, reference_ids["PROTEIN"])


@pytest.mark.parametrize("text,expected", list(CASES.values()), ids=list(CASES))
def test_component_alone(rel_linker_nlp: Language, reference_ids, text: str, expected: str):
    """The mention as one hand-made token between ordinary words; its neighbour is still linked right."""
    pipe = rel_linker_nlp.get_pipe("nseen_linker")
    if expected == NO_ENTITY:
        doc = pipe(Doc(rel_linker_nlp.vocab, words=[]))
        assert len(doc) == 0 and doc.ents == ()
        return
    doc = doc_with_ents(rel_linker_nlp, ["Binding", "of", text, "to", "water", "."], [(2, 3, "PROTEIN"), (4, 5, "CHEMICAL")])
    mention, water = pipe(doc).ents
    assert mention.text == text
    assert_result(mention, expected, reference_ids["PROTEIN"])
    assert (water._.kb_id, water._.kb_score) == (WATER, 1.0)


@pytest.mark.parametrize("letter", GREEK, ids=[unicodedata.name(c)[6:].replace(" LETTER", "").replace(" ", "_").lower() for c in GREEK])
def test_every_greek_letter(rel_nlp: Language, rel_linker_nlp: Language, reference_ids, letter: str):
    """Alone (full pipeline) and inside a name (component alone): well-formed; gamma gives PLC-gamma-2."""
    (alone,) = rel_nlp(letter).ents
    assert_well_formed(alone, reference_ids["PROTEIN"])
    doc = doc_with_ents(rel_linker_nlp, [f"PLC{letter}2"], [(0, 1, "PROTEIN")])
    (inside,) = rel_linker_nlp.get_pipe("nseen_linker")(doc).ents
    assert_well_formed(inside, reference_ids["PROTEIN"])
    if letter in "\u03b3\u0393":
        assert (inside._.kb_id, inside._.kb_score) == (PLCG2, 1.0)


def test_greek_alphabet_is_complete():
    assert len(GREEK) == 49  # 24 capitals (there is no capital final sigma), 25 small letters with ς
    assert all(unicodedata.name(c).startswith("GREEK ") for c in GREEK)


# -- the truncation rule -------------------------------------------------------------------------------


def test_only_the_first_max_length_characters_are_encoded(rel_linkers):
    linker = rel_linkers["uniprot"]
    prefix = "PLCG2 phospholipase gamma 2 ABCDEFGHIJKLMNOP"[:MAX_LENGTH]
    a, b = prefix + "A" * 99_968, prefix + "xyz" * 30_000
    va, vb = linker.encode([a]), linker.encode([b])
    assert numpy.array_equal(va, vb)
    assert not numpy.array_equal(linker.encode([prefix[:-1] + "#"]), va)
    # dense links read only the encoded prefix, so they agree too
    assert linker.link([a], mode="dense") == linker.link([b], mode="dense")


def test_truncation_counts_nfc_characters(rel_linkers):
    """Text is NFC-normalised before it is cut: a decomposed é is one character, as in its composed form."""
    linker = rel_linkers["uniprot"]
    decomposed, composed = "e\u0301" * 100, "\u00e9" * 100
    assert numpy.array_equal(linker.encode([decomposed]), linker.encode([composed]))
    assert numpy.array_equal(linker.encode([composed]), linker.encode([composed[:MAX_LENGTH]]))


def test_exact_match_keys_read_the_whole_mention(rel_linkers):
    """The exact-match short-cut uses the whole string: a long mention that only starts like a name is
    not an exact match, while the name itself is."""
    linker = rel_linkers["uniprot"]
    name = "1-phosphatidylinositol 4,5-bisphosphate phosphodiesterase gamma-2"
    assert len(name) > MAX_LENGTH
    [[exact]], [[longer]] = linker.link([name], top_k=1), linker.link([name + " but longer"], top_k=1)
    assert exact == (PLCG2, name, 1.0)
    assert longer.score < 1.0 or longer.name != name


def test_a_100k_character_mention_is_fast(rel_linkers):
    start = time.perf_counter()
    rel_linkers["uniprot"].link(["PLCG2" * 20_000, "\u03b1\u03b2" * 50_000])
    assert time.perf_counter() - start < 30.0  # well under 1 s on an idle core


# -- lone surrogates ---------------------------------------------------------------------------------


def test_lone_surrogates_in_the_linker_itself(rel_linkers, reference_ids):
    """spaCy's tokenizer refuses lone surrogates (UnicodeEncodeError); the string linker accepts them."""
    results = rel_linkers["uniprot"].link(["\ud800", "PLC\udfffG2", "\udc80" * 100])
    assert len(results) == 3
    for candidates in results:
        assert 1 <= len(candidates) <= TOP_K
        assert {c.kb_id for c in candidates} <= reference_ids["PROTEIN"]


# -- labels ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("label", ["DISEASE", "protein", "Chemical", "X" * 300])
def test_labels_not_mapped_are_left_untouched(rel_linker_nlp, label):
    """Unmapped labels (mapping is case-sensitive) are not linked: the extensions keep their defaults
    (`_.kb_candidates is None`, unlike a blank mention's `[]`) and a kb_id set before is kept."""
    doc = Doc(rel_linker_nlp.vocab, words=["PLCG2", "and", "water"])
    doc.ents = [Span(doc, 0, 1, label=label, kb_id="MESH:D000001"), Span(doc, 2, 3, label=label)]
    first, second = rel_linker_nlp.get_pipe("nseen_linker")(doc).ents
    assert (first.kb_id_, second.kb_id_) == ("MESH:D000001", "")
    for ent in (first, second):
        assert (ent._.kb_id, ent._.kb_score, ent._.kb_candidates) == (None, None, None)


def test_a_label_missing_from_kbs_is_not_linked(rel_linker_nlp):
    """The factory's default `kbs` is empty, so only the labels the config maps are linked."""
    doc = doc_with_ents(rel_linker_nlp, ["PLCG2"], [(0, 1, "GENE")])
    (ent,) = rel_linker_nlp.get_pipe("nseen_linker")(doc).ents
    assert (ent._.kb_id, ent._.kb_score, ent._.kb_candidates, ent.kb_id_) == (None, None, None, "")


def test_a_threshold_above_every_score_leaves_mentions_unlinked_with_candidates(rel_linkers, reference_ids):
    nlp = make_pipeline(rel_linkers, with_ner=False, threshold=1.01)
    doc = doc_with_ents(nlp, ["PLCG2", "odd\x00"], [(0, 1, "PROTEIN"), (1, 2, "PROTEIN")])
    for ent in nlp.get_pipe("nseen_linker")(doc).ents:
        assert_well_formed(ent, reference_ids["PROTEIN"], threshold=1.01)
        assert ent._.kb_id is None and ent.kb_id_ == ""


# -- spans set by hand -------------------------------------------------------------------------------


def test_zero_length_spans_are_never_linked(rel_linker_nlp):
    """spaCy drops zero-length spans from doc.ents; in doc.spans they stay, untouched."""
    doc = Doc(rel_linker_nlp.vocab, words=["PLCG2", "binds", "water"])
    doc.ents = [Span(doc, 1, 1, label="PROTEIN"), Span(doc, 0, 1, label="PROTEIN"), Span(doc, 3, 3, label="CHEMICAL")]
    doc.spans["sc"] = [Span(doc, 1, 1, label="PROTEIN"), Span(doc, 3, 3, label="CHEMICAL")]
    doc = rel_linker_nlp.get_pipe("nseen_linker")(doc)
    assert [(e.start, e.end, e._.kb_id) for e in doc.ents] == [(0, 1, PLCG2)]
    assert [(s.start, s.end, s.kb_id_, s._.kb_id) for s in doc.spans["sc"]] == [(1, 1, "", None), (3, 3, "", None)]


def test_overlapping_spans_live_in_doc_spans_and_only_doc_ents_are_linked(rel_linker_nlp):
    """spaCy refuses overlapping doc.ents (ValueError) before any component runs; overlapping spans belong
    in doc.spans, which the linker neither reads nor changes. (spaCy keys `Span._` values by character
    offsets, so a span at exactly the offsets of a linked entity reads that entity's values.)"""
    doc = Doc(rel_linker_nlp.vocab, words=["PLCG2", "water", "PLCG2"])
    with pytest.raises(ValueError):
        doc.ents = [Span(doc, 0, 2, label="PROTEIN"), Span(doc, 1, 3, label="CHEMICAL")]
    doc.spans["sc"] = [Span(doc, 0, 2, label="PROTEIN"), Span(doc, 1, 3, label="CHEMICAL"), Span(doc, 2, 3, label="PROTEIN")]
    doc.ents = [Span(doc, 0, 1, label="PROTEIN"), Span(doc, 1, 2, label="CHEMICAL")]
    doc = rel_linker_nlp.get_pipe("nseen_linker")(doc)
    assert [e._.kb_id for e in doc.ents] == [PLCG2, WATER]
    assert [(s.start, s.end, s.label_, s.kb_id_, s._.kb_candidates) for s in doc.spans["sc"]] == [
        (0, 2, "PROTEIN", "", None), (1, 3, "CHEMICAL", "", None), (2, 3, "PROTEIN", "", None)
    ]
    assert doc[0:1]._.kb_id == PLCG2  # same offsets as the first entity


# -- many entities, many docs ------------------------------------------------------------------------


def test_a_doc_with_5000_entities(rel_linkers, rel_linker_nlp, reference_ids):
    uniprot = rel_linkers["uniprot"].reference_set.names
    chebi = rel_linkers["chebi"].reference_set.names
    words, ents = [], []
    for i in range(5_000):
        if i % 2:
            words.append(chebi[i % len(chebi)])
            ents.append((i, i + 1, "CHEMICAL"))
        else:
            # distinct strings: every third one a reference name, the others noisy variants
            words.append(uniprot[i % len(uniprot)] if i % 3 == 0 else f"{uniprot[i % len(uniprot)]}-{i}")
            ents.append((i, i + 1, "PROTEIN"))
    doc = doc_with_ents(rel_linker_nlp, words, ents)
    start = time.perf_counter()
    doc = rel_linker_nlp.get_pipe("nseen_linker")(doc)
    seconds = time.perf_counter() - start
    assert len(doc.ents) == 5_000 and seconds < 60.0  # about 1 s on one idle core: a guard against pathologies
    for ent in doc.ents:
        assert_well_formed(ent, reference_ids[ent.label_])
        name = ent.text
        kb = rel_linkers["uniprot" if ent.label_ == "PROTEIN" else "chebi"].reference_set
        if name in kb.names:
            assert ent._.kb_score == 1.0 and name in kb.names_of(ent._.kb_id)


def test_thousands_of_docs_with_odd_mentions(rel_nlp, reference_ids):
    texts = [text for text, expected in CASES.values() if len(text) < 1_000] * 20
    docs = list(rel_nlp.pipe(texts, batch_size=64))
    assert len(docs) == len(texts) > 1_000
    for text, doc in zip(texts, docs):
        assert doc.text == text
        for ent in doc.ents:
            if ent.text.strip():
                assert_well_formed(ent, reference_ids["PROTEIN"])
            else:
                assert_blank(ent)


def test_case_count():
    """The issue asks for at least 50 bad-input cases; each runs through both paths."""
    assert len(CASES) + len(GREEK) >= 50 and len(CASES) >= 50


@pytest.mark.parametrize("name", ["article_texts", "figure_texts"])
@pytest.mark.parametrize("value,message", [
    ("one text", "must be a list of strings.*got str"),
    ([None], r"\[0\] is a NoneType"),
    (["fine", 3], r"\[1\] is a int"),
    ({"a": "b"}, "must be a list of strings.*got dict"),
])
def test_context_texts_that_are_not_a_list_of_strings_are_a_clear_error(rel_linker_nlp, name, value, message):
    """`doc._.article_texts` / `figure_texts` given as one string or with non-strings: a TypeError naming the
    attribute, not a crash inside the abbreviation or organism code (nor a string read character by character)."""
    doc = doc_with_ents(rel_linker_nlp, ["PLCG2", "binds", "water"], [(0, 1, "PROTEIN")])
    setattr(doc._, name, value)
    with pytest.raises(TypeError, match=f"doc._.{name}.*{message}" if "list" in message else message):
        rel_linker_nlp.get_pipe("nseen_linker")(doc)
    doc = doc_with_ents(rel_linker_nlp, ["PLCG2", "binds", "water"], [(0, 1, "PROTEIN")])
    setattr(doc._, name, ("an", "other text"))  # a tuple of strings is fine
    assert rel_linker_nlp.get_pipe("nseen_linker")(doc).ents[0]._.kb_candidates
