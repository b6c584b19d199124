"""Tests of `organisms.paralog_suffix`: a name that is the mention plus a member suffix."""
import pytest

from spacy_nseen.organisms.paralog_suffix import has_member_suffix


@pytest.mark.parametrize("mention,name", [
    ("Atg16", "ATG16L"), ("Atg16", "ATG16L1"), ("Atg‐16", "Atg16l1"), ("Sec31", "SEC31A"), ("Sec22", "SEC22B"),
    ("Fis", "FIS1"), ("Atg16", "ATG16-like 2"),
])
def test_a_member_suffix_is_recognised(mention: str, name: str) -> None:
    assert has_member_suffix(mention, name)


@pytest.mark.parametrize("mention,name", [
    ("Atg16", "ATG16"),  # the same name: an exact match, not a counterpart
    ("Atg1", "ATG101"),  # two digits: another gene
    ("Atg16", "ATG16L1 interacting protein"),  # more than a suffix
    ("Atg16", "Autophagy-related protein 16-1"),
    ("Sec31", "SEC31E"),  # member letters stop at d
    ("H2", "H2A"),  # too short to extend
    ("", "L1"), ("Atg16", ""),
])
def test_other_names_are_not(mention: str, name: str) -> None:
    assert not has_member_suffix(mention, name)


def test_a_list_of_names_is_tested_as_each_name_alone() -> None:
    from spacy_nseen.organisms.paralog_suffix import member_suffixed

    names = ["ATG16L", "ATG16", "Autophagy-related protein 16-1", "ATG16L1", "ATG101"]
    assert member_suffixed("Atg16", names).tolist() == [True, False, False, True, False]
    assert member_suffixed("Atg16", names).tolist() == [has_member_suffix("Atg16", name) for name in names]
    assert member_suffixed("H2", ["H2A"]).tolist() == [False] and member_suffixed("Atg16", []).tolist() == []
