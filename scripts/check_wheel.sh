#!/usr/bin/env bash
# Install a packaged pipeline wheel into a fresh virtualenv and check that it links a caption.
#
#   bash scripts/check_wheel.sh WHEEL PACKAGE_NAME "caption text" OUT_DIR [isolated|reuse-deps]
#
# Creates OUT_DIR/venv (fresh), installs this repository's spacy-nseen (the wheel requires it; it is not on
# PyPI yet) and the wheel, then, in that venv: spacy.load(PACKAGE_NAME)(text), asserts that at least one
# entity got a UniProt or ChEBI id, renders displacy HTML with links to the entry pages (kb_url_template)
# into OUT_DIR/displacy.html and writes OUT_DIR/result.json.
#   isolated (default): no site-packages but the venv's own; torch==2.13.0 (CPU) first, then both packages
#       with all their requirements from the package index (several minutes when the index is slow).
#   reuse-deps: the third-party requirements (torch, spacy, ...) come from the current interpreter's
#       site-packages (a .pth line), only the two packages are installed into the venv, and `pip check`
#       verifies that every requirement of the wheel is met. Used by the demo workflow to stay fast.
# NSEEN_CHECK_PYTHON chooses the interpreter (default: $NSEEN_PYTHON, set by training.workflow.step_timer, or python3).
set -euo pipefail

if [ "$#" -lt 4 ] || [ "$#" -gt 5 ]; then
    echo "usage: $0 WHEEL PACKAGE_NAME TEXT OUT_DIR [isolated|reuse-deps]" >&2
    exit 2
fi
mode="${5:-isolated}"
wheel="$(realpath "$1")"
package="$2"
text="$3"
out="$4"
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${NSEEN_CHECK_PYTHON:-${NSEEN_PYTHON:-python3}}"

[ -f "$wheel" ] || { echo "wheel not found: $wheel" >&2; exit 1; }
rm -rf "$out/venv"
mkdir -p "$out"
out="$(realpath "$out")"
"$python" -m venv "$out/venv"
venv_python="$out/venv/bin/python"
pip=("$venv_python" -m pip install --quiet --disable-pip-version-check)
# build this repository's package as a wheel from a temporary copy (the work tree stays clean)
tmp_src="$(mktemp -d)"
trap 'rm -rf "$tmp_src"' EXIT
mkdir -p "$tmp_src/src" "$tmp_src/dist"
cp -r "$repo/setup.cfg" "$repo/pyproject.toml" "$repo/LICENSE" "$repo/spacy_nseen" "$tmp_src/src/"
if [ -f "$repo/README.md" ]; then cp "$repo/README.md" "$tmp_src/src/"; else echo "spacy-nseen" > "$tmp_src/src/README.md"; fi
find "$tmp_src/src" -name __pycache__ -prune -exec rm -rf {} +
case "$mode" in
    isolated)
        "${pip[@]}" "torch==2.13.0"
        "${pip[@]}" "$tmp_src/src" "$wheel"
        ;;
    reuse-deps)
        "$python" -m pip wheel --quiet --no-deps --no-build-isolation -w "$tmp_src/dist" "$tmp_src/src"
        deps_site="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
        venv_site="$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
        echo "$deps_site" > "$venv_site/_nseen_check_deps.pth"
        # --ignore-installed: a copy of either package in the reused site-packages must not stand in for these
        "${pip[@]}" --no-index --no-deps --ignore-installed "$tmp_src"/dist/*.whl "$wheel"
        "$venv_python" -m pip check --disable-pip-version-check | grep -iE "spacy-nseen|${package//_/-}" && {
            echo "unmet requirements of the wheel (above)" >&2; exit 1; } || true
        ;;
    *)
        echo "unknown mode $mode (isolated or reuse-deps)" >&2
        exit 2
        ;;
esac

cd "$out"  # away from the repository, so nothing is imported from the work tree
unset PYTHONPATH  # (tests set it to a copy of the repository) so only the venv's packages are imported
"$out/venv/bin/python" - "$package" "$text" <<'PY'
import json
import sys

import spacy
import spacy_nseen
from spacy import displacy

assert sys.prefix in spacy_nseen.__file__, f"spacy_nseen imported from outside the venv: {spacy_nseen.__file__}"

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
