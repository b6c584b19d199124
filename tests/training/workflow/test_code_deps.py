from pathlib import Path

from training.workflow.code_deps import (
    REPO,
    check,
    code_entries,
    command_code,
    imported_modules,
    module_closure,
    rewrite_project,
)


def write(root: Path, rel: str, text: str = "") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf8")
    return path


def fake_repo(root: Path) -> None:
    write(root, "training/__init__.py")
    write(root, "training/step.py", "import json\nfrom .helpers import f\n\ndef main():\n    from spacy_nseen.text import g\n")
    write(root, "training/helpers.py", "from spacy_nseen import linker\n")
    write(root, "training/unused.py")
    write(root, "spacy_nseen/__init__.py", "from .text import g\n")
    write(root, "spacy_nseen/text/__init__.py", "from .normalise import g\n")
    write(root, "spacy_nseen/text/normalise.py", "import numpy\n")
    write(root, "spacy_nseen/linker.py", "from . import text\nfrom .text.normalise import g\n")
    write(root, "configs/pipeline.cfg", '[components.linker]\nfactory = "nseen_linker"\n')
    write(root, "configs/ner.cfg", '[components.ner]\nfactory = "ner"\n')


def test_imports_relative_lazy_and_submodules_are_found(tmp_path):
    fake_repo(tmp_path)
    assert imported_modules(tmp_path / "training/step.py", tmp_path) == {
        "training", "training.helpers", "spacy_nseen", "spacy_nseen.text"}
    assert imported_modules(tmp_path / "spacy_nseen/linker.py", tmp_path) == {
        "spacy_nseen", "spacy_nseen.text", "spacy_nseen.text.normalise"}


def test_the_closure_holds_parent_packages_and_transitive_imports(tmp_path):
    fake_repo(tmp_path)
    files = {str(p.relative_to(tmp_path)) for p in module_closure(["training.step"], tmp_path)}
    assert files == {"training/__init__.py", "training/step.py", "training/helpers.py", "spacy_nseen/__init__.py",
                     "spacy_nseen/linker.py", "spacy_nseen/text/__init__.py", "spacy_nseen/text/normalise.py"}


def test_script_lines_name_modules_code_files_and_configs(tmp_path):
    fake_repo(tmp_path)
    command = {"script": ["python -m training.workflow.step_timer x t.json -- python -m training.helpers a b",
                          "python -m spacy train configs/ner.cfg --code training/unused.py",
                          "python -m spacy assemble configs/pipeline.cfg out"]}
    code = command_code(command, tmp_path)
    assert "training/workflow/step_timer.py" not in code and "training/step.py" not in code
    assert {"training/helpers.py", "training/unused.py", "configs/ner.cfg", "configs/pipeline.cfg",
            "spacy_nseen/linker.py", "spacy_nseen/text/normalise.py"} <= set(code)


def test_rewrite_replaces_code_entries_and_keeps_the_rest(tmp_path):
    fake_repo(tmp_path)
    write(tmp_path, "project.yml", """vars:
  out: "corpus"
commands:
  - name: step
    script:
      - "python -m training.helpers ${vars.out}"
    deps:
      - "${vars.out}/data.tsv"
      - "training/gone.py"
    outputs:
      - "${vars.out}/result.tsv"

  - name: other
    script:
      - "python -m training.unused"
    outputs:
      - "${vars.out}/other.tsv"
""")
    assert rewrite_project(tmp_path) == 2
    text = (tmp_path / "project.yml").read_text(encoding="utf8")
    assert '"${vars.out}/data.tsv"' in text and "training/gone.py" not in text
    assert '      - "training/unused.py"\n    outputs:' in text
    assert check(tmp_path) == {}
    assert rewrite_project(tmp_path) == 0


def test_every_project_command_lists_the_code_it_runs():
    problems = check(REPO)
    assert problems == {}, f"{problems}: run python -m training.workflow.code_deps --write"


def test_code_entries_are_paths_of_code():
    assert code_entries(["corpus/x.tsv", "training/data/fetch.py", "configs/ner.cfg", "training_output/pipeline",
                         "scripts/check_wheel.sh"]) == ["training/data/fetch.py", "configs/ner.cfg", "scripts/check_wheel.sh"]


def test_results_hold_no_code():
    """Measurements cited in results/*.md live in training/experiments/, so code changes show in one tree."""
    assert sorted(str(p.relative_to(REPO)) for p in (REPO / "results").rglob("*.py")) == []
