import json
from pathlib import Path

from spacy_nseen.corpus.bioc import bioc_xml, read_bioc_json, read_bioc_xml
from spacy_nseen.corpus.records import BadRecord, TextRecord

BIOC_XML = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE collection SYSTEM "BioC.dtd">
<collection><source>Bio-ID</source><date>2017</date><key>x</key>
<document><id>140041 Figure_1-A</id>
  <passage><infon key="type">fig_caption</infon><offset>0</offset><text>(A) PLCγ2 binds ATP.</text>
    <annotation id="1"><infon key="type">protein</infon><location offset="4" length="5"/><text>PLCγ2</text></annotation>
  </passage>
</document>
<document><id>PMC2</id>
  <passage><offset>0</offset><text>Title</text></passage>
  <passage><offset>6</offset></passage>
  <passage><offset>20</offset><text>Abstract with FOXP2.</text></passage>
</document>
</collection>
"""


def test_read_bioc_xml(tmp_path: Path):
    path = tmp_path / "c.xml"
    path.write_text(BIOC_XML, encoding="utf-8")
    items = list(read_bioc_xml(path))
    first = items[0]
    assert isinstance(first, TextRecord) and (first.id, first.text) == ("140041 Figure_1-A", "(A) PLCγ2 binds ATP.")
    assert first.meta["infons"] == {"type": "fig_caption"} and first.meta["passage_offset"] == 0
    assert first.meta["annotations"][0]["locations"] == [[4, 5]]
    assert [i.id if isinstance(i, TextRecord) else i.position for i in items[1:]] == [
        "PMC2/0", "c.xml document 'PMC2' passage 1", "PMC2/2"]
    assert items[2] == BadRecord("c.xml document 'PMC2' passage 1", "missing text")
    assert items[3].meta["passage_offset"] == 20


def test_invalid_xml_reports_line_and_column(tmp_path: Path):
    path = tmp_path / "broken.xml"
    path.write_bytes(BIOC_XML.split("<document><id>PMC2")[0].encode() + b"<document><id>X</id><passage><text>a \xff</text>")
    items = list(read_bioc_xml(path))
    assert isinstance(items[0], TextRecord)
    assert isinstance(items[-1], BadRecord) and items[-1].position.startswith("broken.xml:9:")
    assert "invalid XML" in items[-1].problem


def test_read_bioc_json_collection_and_list(tmp_path: Path):
    collection = {"source": "PMC", "documents": [
        {"id": "PMC1", "passages": [{"offset": 0, "infons": {"section_type": "FIG"}, "text": "HRAS and water"}]},
        {"id": "PMC2", "passages": [{"offset": 0}]},
        {"id": "PMC3"},
    ]}
    path = tmp_path / "c.json"
    path.write_text(json.dumps([collection]), encoding="utf-8")
    items = list(read_bioc_json(path))
    assert items[0] == TextRecord("PMC1", "HRAS and water", {"document": "PMC1", "passage_offset": 0, "infons": {"section_type": "FIG"}})
    assert [b.problem for b in items[1:]] == ["missing text", "not a BioC document (no 'passages' list)"]
    (tmp_path / "bad.json").write_text('{"documents": [', encoding="utf-8")
    bad = list(read_bioc_json(tmp_path / "bad.json"))
    assert len(bad) == 1 and bad[0].position.startswith("bad.json:1:") and "invalid JSON" in bad[0].problem


def test_written_bioc_round_trips_through_the_reader(tmp_path: Path):
    entity = {"start": 4, "end": 9, "text": "PLCγ2", "label": "PROTEIN", "kb_id": "UniProt:P16885", "kb_score": 1.0,
              "kb_candidates": [["UniProt:P16885", "PLC-gamma-2", 1.0]], "kb_taxon": 9606}
    records = [
        {"id": "a", "text": "(A) PLCγ2 < ATP & co", "meta": {"infons": {"type": "fig_caption"}}, "entities": [entity], "organisms": [9606]},
        {"id": "PMC2/0", "text": "Title", "meta": {"document": "PMC2", "passage_offset": 0}, "entities": []},
        {"id": "PMC2/1", "text": "Abstract PLCγ2", "meta": {"document": "PMC2", "passage_offset": 6},
         "entities": [dict(entity, start=9, end=14, kb_id=None, kb_score=None)]},
    ]
    path = tmp_path / "out.bioc.xml"
    path.write_text(bioc_xml(records), encoding="utf-8")
    back = list(read_bioc_xml(path))
    assert [(r.id, r.text) for r in back] == [(r["id"], r["text"]) for r in records]
    (ann,) = back[0].meta["annotations"]
    assert ann["infons"]["identifier"] == "UniProt:P16885" and ann["infons"]["type"] == "PROTEIN"
    assert json.loads(ann["infons"]["candidates"]) == entity["kb_candidates"] and ann["infons"]["taxon"] == "9606"
    assert ann["locations"] == [[4, 5]] and ann["text"] == "PLCγ2"
    assert json.loads(back[0].meta["infons"]["organisms"]) == [9606]
    (unlinked,) = back[2].meta["annotations"]
    assert "identifier" not in unlinked["infons"] and unlinked["locations"] == [[6 + 9, 5]]
    assert back[2].text[unlinked["locations"][0][0] - 6:][:5] == "PLCγ2"


def test_a_directory_of_bioc_files_is_read_file_by_file_in_path_order(tmp_path):
    from spacy_nseen.corpus.bioc import read_bioc_json, read_bioc_xml
    from spacy_nseen.corpus.readers import read_corpus

    folder = tmp_path / "articles"
    (folder / "b").mkdir(parents=True)
    for name, doc_id in (("b/2.json", "PMC2"), ("1.json", "PMC1")):
        passages = [{"offset": 0, "text": f"{doc_id} title"}, {"offset": 20, "text": f"{doc_id} caption"}]
        (folder / name).write_text(json.dumps({"documents": [{"id": doc_id, "passages": passages}]}))
    (folder / "notes.txt").write_text("not BioC")
    assert [r.id for r in read_bioc_json(folder)] == ["PMC1/0", "PMC1/1", "PMC2/0", "PMC2/1"]
    assert [r.id for r in read_corpus(folder, "bioc-json")] == ["PMC1/0", "PMC1/1", "PMC2/0", "PMC2/1"]
    assert list(read_bioc_xml(folder)) == []  # no XML file in it
