#!/usr/bin/env bash
# Install a packaged pipeline wheel into a fresh virtualenv and check that it links a caption.
#
#   bash scripts/check_wheel.sh WHEEL PACKAGE_NAME "caption text" OUT_DIR
#
# Creates OUT_DIR/venv (fresh, no system site-packages), installs torch==2.13.0 (CPU), this repository's
# spacy-nseen (the wheel requires it; it is not on PyPI yet) and the wheel, then, in that venv:
# spacy.load(PACKAGE_NAME)(text), asserts that at least one entity got a UniProt or ChEBI id, and renders
# displacy HTML with links to the entry pages (kb_url_template) into OUT_DIR/displacy.html, plus
# OUT_DIR/result.json. Set NSEEN_CHECK_PYTHON to choose the interpreter (default: python3).
set -euo pipefail

if [ "$#" -ne 4 ]; then
    echo "usage: $0 WHEEL PACKAGE_NAME TEXT OUT_DIR" >&2
    exit 2
fi
wheel="$(realpath "$1")"
package="$2"
text="$3"
out="$4"
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${NSEEN_CHECK_PYTHON:-python3}"

[ -f "$wheel" ] || { echo "wheel not found: $wheel" >&2; exit 1; }
rm -rf "$out/venv"
mkdir -p "$out"
out="$(realpath "$out")"
"$python" -m venv "$out/venv"
pip=("$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" "torch==2.13.0"
# a non-editable install of this repository (build in a temporary copy, so the work tree stays clean)
tmp_src="$(mktemp -d)"
trap 'rm -rf "$tmp_src"' EXIT
tar -C "$repo" --exclude=./corpus --exclude=./training_output --exclude=./packages --exclude=./.git \
    --exclude=./results --exclude='*.egg-info' --exclude=./build -cf - setup.cfg pyproject.toml spacy_nseen README.md 2>/dev/null \
    | tar -C "$tmp_src" -xf - || true
[ -f "$tmp_src/README.md" ] || echo "spacy-nseen" > "$tmp_src/README.md"
"${pip[@]}" "$tmp_src" "$wheel"

cd "$out"  # away from the repository, so nothing is imported from the work tree
"$out/venv/bin/python" - "$package" "$text" <<'PY'
import json
import sys

import spacy
from spacy import displacy

package, text = sys.argv[1], sys.argv[2]
nlp = spacy.load(package)
doc = nlp(text)
linker = next(nlp.get_pipe(n) for n in nlp.pipe_names if nlp.get_pipe_meta(n).factory == "nseen_linker")
ents = [{"text": e.text, "label": e.label_, "kb_id": e.kb_id_, "score": e._.kb_score} for e in doc.ents]
html = displacy.render(doc, style="ent", options=linker.displacy_options(), page=True)
linked = [e for e in ents if e["kb_id"].startswith(("UniProt:", "CHEBI:"))]
links = [e["kb_id"] for e in linked if linker.kb_url_template.format(e["kb_id"]) in html]
with open("displacy.html", "w", encoding="utf8") as f:
    f.write(html)
result = {"package": package, "pipeline": nlp.pipe_names, "requirements": nlp.meta.get("requirements"),
          "text": text, "entities": ents, "linked": len(linked), "entry_links_in_html": links}
with open("result.json", "w", encoding="utf8") as f:
    json.dump(result, f, indent=2)
for e in ents:
    print(f"  {e['text']!r:40} {e['label']:12} {e['kb_id']}")
assert linked, f"no entity got a UniProt or ChEBI id: {ents}"
assert links, "displacy HTML has no link to an entry page"
assert any(r.startswith("spacy-nseen") for r in nlp.meta.get("requirements", [])), nlp.meta.get("requirements")
print(f"OK: {package} linked {len(linked)} of {len(ents)} entities; displacy links to the entry pages")
PY
rm -rf "$out/venv"
