"""The abbreviation lexicon mined from many articles (`spacy_nseen.text.abbreviation_lexicon`)."""
import json

import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.text.abbreviation_lexicon import FORMAT, VERSION, AbbreviationLexicon, lexicon_rows

ARTICLES = [
    ["Cells treated with cycloheximide (CHX).", "Lysates blotted for ubiquitin (Ub)."],
    ["Cycloheximide (CHX) chase.", "Anti-ubiquitin blot; Ubiquitin (Ub) chains."],
    ["Chase with cycloheximide (CHX) for 4 h.", "Ubiquitylation (Ub) assays."],
    ["Cells were fixed with paraformaldehyde (PFA)."],
]


def test_a_short_form_is_kept_when_enough_articles_agree_on_its_long_form():
    lexicon = AbbreviationLexicon.from_documents(ARTICLES, min_documents=2, min_share=0.5)
    assert lexicon.get("CHX") == "cycloheximide"  # 3 articles; the spelling is the most frequent one
    assert lexicon.get("Ub") == "ubiquitin"  # 2 of 3 articles, compared case-insensitively
    assert lexicon.get("PFA") is None and "PFA" not in lexicon  # one article only
    assert lexicon.entries["Ub"][1:] == (2, 3) and lexicon.documents == 4
    assert lexicon_rows(lexicon)[0][:3] == ("CHX", "cycloheximide", 3)


def test_a_long_form_that_contains_its_short_form_is_no_expansion():
    articles = [["Cells expressing GFP-LC3 (LC3) and light chain 3 (LC3)."], ["Stained for GFP-LC3 (LC3)."],
                ["Presenilin PS1N (PS1)."], ["Ubiquitin (Ub) chains."]]
    lexicon = AbbreviationLexicon.from_documents(articles)
    assert lexicon.long_forms() == {"LC3": "light chain 3", "Ub": "Ubiquitin"}  # `Ub` starts a longer word
    assert AbbreviationLexicon.from_documents([["The light chain 3 (LC3) blot."]] + articles).get("LC3") == "light chain 3"


def test_the_settings_decide_what_is_kept():
    assert AbbreviationLexicon.from_documents(ARTICLES, min_documents=1).get("PFA") == "paraformaldehyde"
    assert AbbreviationLexicon.from_documents(ARTICLES, min_documents=1, min_share=0.7).get("Ub") is None
    assert len(AbbreviationLexicon.from_documents([], min_documents=1)) == 0


def test_it_round_trips_through_json(tmp_path):
    lexicon = AbbreviationLexicon.from_documents(ARTICLES, min_documents=1, source="toy")
    lexicon.to_disk(tmp_path / "lex.json")
    again = AbbreviationLexicon.from_disk(tmp_path / "lex.json")
    assert again == lexicon and again.long_forms()["CHX"] == "cycloheximide"
    again.to_disk(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "lex.json").read_bytes()


@pytest.mark.parametrize("content, problem", [
    (None, "not found"),
    ('{"format": "spacy_nseen.abbreviation_lexicon", "vers', "truncated"),
    ('{"format": "other"}', "not an abbreviation lexicon"),
    (json.dumps({"format": FORMAT, "version": VERSION + 1}), "version"),
    (json.dumps({"format": FORMAT, "version": VERSION, "documents": 1, "abbreviations": {"Ub": ["ubiquitin"]}}),
     "not a valid"),
])
def test_a_bad_file_names_itself_and_what_to_do(tmp_path, content, problem):
    path = tmp_path / "lex.json"
    if content is not None:
        path.write_text(content, encoding="utf8")
    with pytest.raises(ArtifactError, match=problem) as err:
        AbbreviationLexicon.from_disk(path)
    assert str(path) in str(err.value) and "build_abbreviations" in str(err.value)
