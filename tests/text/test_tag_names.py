"""Epitope tags and reporters written like protein names (`spacy_nseen.text.tag_names`)."""
import pytest

from spacy_nseen.text.tag_names import ALL_TAG_NAMES, GROUP_LABELS, TAG_NAMES, is_tag_name


@pytest.mark.parametrize("text", ["HA", "Flag", "FLAG", "GFP", "mCherry", " Myc ", "3xFlag", "6×His", "HA-tag",
                                  "Flag tag", "HA‐tagged", "Cre", "MS2", "24xMS2", "λN", "sfGFP", "mGFP", "TRE", "Flp", "lacZ"])
def test_tags_reporters_and_tools_are_recognised(text):
    assert is_tag_name(text)


@pytest.mark.parametrize("text", ["MYC", "Ha", "LC3", "HAX1", "tag", "3x", "", "GFP-LC3", "Myc-Max", "HA1", "MS2-HA",
                                  "FKBP", "AID", "TG", "Tg", "OPA1", "NTG1", "CTRL1"])
def test_proteins_and_fusions_are_not(text):
    assert not is_tag_name(text)  # `MYC` is the human gene; a fusion names its protein


def test_every_listed_name_is_one():
    assert ALL_TAG_NAMES == TAG_NAMES + GROUP_LABELS
    assert all(is_tag_name(name) for name in ALL_TAG_NAMES)


@pytest.mark.parametrize("text", ["NTG", "WT", "KO", "cKO", "Ctrl", "CTRL"])
def test_experimental_group_labels_are_read_as_tag_names(text):
    assert is_tag_name(text)  # `NTG` (non-transgenic) is an alias of OPA1, `CTRL` a gene symbol
