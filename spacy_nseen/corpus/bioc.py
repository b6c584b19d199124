"""BioC, the format of Bio-ID, PMC's BioC service and PubTator: readers of BioC XML and BioC JSON, and a
writer of annotated BioC XML that the XML reader reads back.

A record is one passage. Its id is the document id when the document has one passage, otherwise
`<document id>/<passage index>`; `meta` keeps `document`, `passage_offset`, the passage's `infons` and, when
the passage has some, its `annotations` (offsets as in the file). Offsets written are character offsets,
document-level (passage offset + offset in the passage), as the Python `bioc` package counts them.
"""

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional

from .errors import CorpusError
from .line_readers import open_binary
from .records import BadRecord, CorpusItem, TextRecord

SOURCE = "spacy_nseen"
KEY = "spacy_nseen.key: annotations of nseen_linker; character offsets; infon identifier = CURIE, score, candidates (JSON)"


def _infons(element: ET.Element) -> Dict[str, str]:
    return {i.get("key", ""): i.text or "" for i in element.findall("infon")}


def _xml_annotation(element: ET.Element) -> Dict[str, Any]:
    return {
        "id": element.get("id", ""),
        "infons": _infons(element),
        "locations": [
            [int(loc.get("offset", "0")), int(loc.get("length", "0"))] for loc in element.findall("location")
        ],
        "text": element.findtext("text") or "",
    }


def _passage_records(doc_id: str, passages: List[Dict[str, Any]], position: str) -> Iterator[CorpusItem]:
    for index, passage in enumerate(passages):
        record_id = doc_id if len(passages) == 1 else f"{doc_id}/{index}"
        text = passage.get("text")
        if not isinstance(text, str):
            yield BadRecord(f"{position} document {doc_id!r} passage {index}", "missing text")
            continue
        try:
            offset = int(passage.get("offset", 0))
        except (TypeError, ValueError):
            yield BadRecord(f"{position} document {doc_id!r} passage {index}", f"bad offset {passage.get('offset')!r}")
            continue
        meta: Dict[str, Any] = {"document": doc_id, "passage_offset": offset, "infons": passage.get("infons") or {}}
        if passage.get("annotations"):
            meta["annotations"] = passage["annotations"]
        yield TextRecord(record_id, text, meta)


def bioc_files(path: Path, suffix: str) -> List[Path]:
    """RETURNS (List[Path]): the files of a directory of BioC files (`*.xml`, `*.xml.gz` for suffix `.xml`), recursively,
    in sorted path order: a corpus of one file per article, as PMC's BioC service gives them."""
    return sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith((suffix, suffix + ".gz")))


def read_bioc_xml(path: Path) -> Iterator[CorpusItem]:
    """Read a BioC XML collection document by document (streamed: a corpus file of any size).

    path (Path): The file (`.xml` or `.xml.gz`), or a directory of them (read in sorted path order).
    YIELDS (CorpusItem): A record per passage. Invalid XML (or non-UTF-8 bytes) ends the file with one
        `BadRecord` at the line and column of the error.
    """
    if path.is_dir():
        for file in bioc_files(path, ".xml"):
            yield from read_bioc_xml(file)
        return
    n_documents = 0
    with open_binary(path) as f:
        try:
            for _, element in ET.iterparse(f, events=("end",)):
                if element.tag != "document":
                    continue
                n_documents += 1
                doc_id = element.findtext("id") or f"{path.name}#{n_documents}"
                passages = [
                    {
                        "offset": p.findtext("offset") or "0",
                        "infons": _infons(p),
                        "text": p.findtext("text"),
                        "annotations": [_xml_annotation(a) for a in p.findall("annotation")],
                    }
                    for p in element.findall("passage")
                ]
                yield from _passage_records(doc_id, passages, path.name)
                element.clear()
        except ET.ParseError as err:
            line, column = err.position
            yield BadRecord(f"{path.name}:{line}:{column}", f"invalid XML, rest of file skipped ({err})")
        except (EOFError, OSError) as err:
            yield BadRecord(
                f"{path.name} after document {n_documents}", f"corrupt or truncated file, rest skipped ({err})"
            )


def read_bioc_json(path: Path) -> Iterator[CorpusItem]:
    """Read a BioC JSON collection (or a list of collections, as PMC's BioC API returns).

    path (Path): The file (`.json` or `.json.gz`), read whole, or a directory of them (in sorted path order).
    YIELDS (CorpusItem): A record per passage; a file that is not valid JSON or UTF-8 is one `BadRecord`.
    """
    if path.is_dir():
        for file in bioc_files(path, ".json"):
            yield from read_bioc_json(file)
        return
    with open_binary(path) as f:
        try:
            data = json.loads(f.read().decode("utf-8"))
        except UnicodeDecodeError as err:
            yield BadRecord(path.name, f"not valid UTF-8 ({err.reason} at byte {err.start}), file skipped")
            return
        except json.JSONDecodeError as err:
            yield BadRecord(f"{path.name}:{err.lineno}:{err.colno}", f"invalid JSON ({err.msg}), file skipped")
            return
        except (EOFError, OSError) as err:
            yield BadRecord(path.name, f"corrupt or truncated file, skipped ({err})")
            return
    collections = data if isinstance(data, list) else [data]
    for c_index, collection in enumerate(collections):
        documents = collection.get("documents") if isinstance(collection, dict) else None
        if not isinstance(documents, list):
            raise CorpusError(path, f"collection {c_index} has no 'documents' list", "Is this a BioC JSON file?")
        for d_index, document in enumerate(documents):
            position = f"{path.name} collection {c_index} document {d_index}"
            passages = document.get("passages") if isinstance(document, dict) else None
            if not isinstance(passages, list):
                yield BadRecord(position, "not a BioC document (no 'passages' list)")
                continue
            doc_id = str(document.get("id") or f"{path.name}#{d_index + 1}")
            yield from _passage_records(doc_id, [p if isinstance(p, dict) else {} for p in passages], path.name)


def _sub(parent: ET.Element, tag: str, text: Optional[str] = None, **attrib: str) -> ET.Element:
    child = ET.SubElement(parent, tag, attrib)
    if text is not None:
        child.text = text
    return child


def _annotation_infons(entity: Dict[str, Any]) -> Dict[str, str]:
    infons = {"type": entity["label"]}
    if entity.get("kb_id") is not None:
        infons["identifier"] = entity["kb_id"]
    if entity.get("kb_score") is not None:
        infons["score"] = repr(entity["kb_score"])
    if entity.get("kb_candidates") is not None:
        infons["candidates"] = json.dumps(entity["kb_candidates"], ensure_ascii=False)
    for key in ("kb_taxon", "kb_taxon_evidence", "kb_xrefs"):
        if entity.get(key) is not None:
            infons[key[3:]] = json.dumps(entity[key], ensure_ascii=False)
    return infons


def bioc_xml(annotated: Iterable[Dict[str, Any]]) -> str:
    """Serialise annotated records (the dicts of `doc_output.annotated_record`) as one BioC XML collection.

    Consecutive records of the same source document (`meta["document"]`) become passages of one document.
    annotated (Iterable[Dict[str, Any]]): The records, in order.
    RETURNS (str): The XML text, UTF-8 declared.
    """
    collection = ET.Element("collection")
    _sub(collection, "source", SOURCE)
    _sub(collection, "date", "")
    _sub(collection, "key", KEY)
    document: Optional[ET.Element] = None
    current = None
    for record in annotated:
        meta = record.get("meta") or {}
        doc_id = str(meta.get("document", record["id"]))
        if document is None or doc_id != current:
            document = _sub(collection, "document")
            _sub(document, "id", doc_id)
            current = doc_id
        passage = _sub(document, "passage")
        for key, value in (meta.get("infons") or {}).items():
            if key != "organisms":  # a re-annotated output: the new value replaces it
                _sub(passage, "infon", str(value), key=str(key))
        if record.get("organisms") is not None:
            _sub(passage, "infon", json.dumps(record["organisms"]), key="organisms")
        offset = int(meta.get("passage_offset", 0))
        _sub(passage, "offset", str(offset))
        _sub(passage, "text", record["text"])
        for n, entity in enumerate(record["entities"]):
            annotation = _sub(passage, "annotation", id=f"{record['id']}:T{n + 1}")
            for key, value in _annotation_infons(entity).items():
                _sub(annotation, "infon", value, key=key)
            _sub(
                annotation,
                "location",
                offset=str(offset + entity["start"]),
                length=str(entity["end"] - entity["start"]),
            )
            _sub(annotation, "text", entity["text"])
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(collection, encoding="unicode") + "\n"
