"""The code each `project.yml` command runs, so that its `deps` can list it and weasel reruns what a change affects.

    python -m training.workflow.code_deps            # commands whose deps miss (or list stale) code files
    python -m training.workflow.code_deps --write    # rewrite the code entries of every command's deps in project.yml

A command's code is found from its script lines: `python -m training.STEP.X` (the module and its in-repo imports,
transitively: `import`/`from` statements anywhere in a file, relative ones included, each package's
`__init__.py` too), the `--code FILE` of `spacy train`/`evaluate`, a `configs/*.cfg` given to a spaCy command
(when it names an `nseen` registered function, spaCy imports `spacy_nseen` through its entry points) and
`bash scripts/X.sh` (the script; `check_wheel.sh` builds the whole runtime package into a wheel). Only files of
this repository count (`training/`, `spacy_nseen/`, `scripts/`, `configs/`, the packaging files).
`training.workflow.step_timer`, which wraps every line and only records wall times, is not a dependency.

Files are listed one by one, not as directories: weasel hashes every file under a directory dep, including the
`__pycache__/*.pyc` files that Python rewrites when a source's modification time changes (a `git checkout`
would then rerun hours of training).
"""
import ast
import functools
import re
import shlex
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set

import typer
from wasabi import msg

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("training", "spacy_nseen")
NOT_A_DEPENDENCY = {"training.workflow.step_timer"}
# what a shell script runs besides itself (check_wheel.sh copies the runtime package and its packaging files)
SHELL_SCRIPT_CODE = {"scripts/check_wheel.sh": ["spacy_nseen", "setup.cfg", "pyproject.toml"]}
# entries of a deps list that this module maintains: everything else (data, configs) is written by hand
CODE_COMMENT = "# code: python -m training.workflow.code_deps --write"
CODE_ENTRY = re.compile(r"^(training|spacy_nseen)/.+|^configs/.+\.cfg$|^scripts/.+\.sh$|^(setup\.cfg|pyproject\.toml)$")


def module_file(module: str, root: Path = REPO) -> Optional[Path]:
    """RETURNS (Optional[Path]): the file of an in-repo module (`training.data.fetch` → training/data/fetch.py), or None."""
    if module.split(".")[0] not in PACKAGES:
        return None
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=None)
def _parse(path: Path, mtime: float) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf8"), filename=str(path))


def imported_modules(path: Path, root: Path = REPO) -> Set[str]:
    """RETURNS (Set[str]): the in-repo modules a file imports (statements anywhere in it, relative ones resolved),
    with their parent packages; `from pkg import name` adds `pkg.name` when that is a module."""
    tree = _parse(path, path.stat().st_mtime)
    own = _module_name(path, root)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if module_file(prefix, root) is not None:
                    found.add(prefix)
    return found


def module_closure(modules: Iterable[str], root: Path = REPO) -> Set[Path]:
    """RETURNS (Set[Path]): the files of the modules, their parent packages' `__init__.py` and everything they
    import from this repository, transitively."""
    todo = []
    for module in modules:
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    seen: Set[str] = set()
    files: Set[Path] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = module_file(module, root)
        if path is None:
            continue
        files.add(path)
        todo.extend(imported_modules(path, root) - seen)
    return files


def _config_uses_package(config: Path) -> bool:
    return config.is_file() and re.search(r"nseen", config.read_text(encoding="utf8")) is not None


def script_code(line: str, root: Path = REPO) -> Set[Path]:
    """RETURNS (Set[Path]): the repository files one (interpolated) script line runs."""
    words = shlex.split(line)
    files: Set[Path] = set()
    modules: List[str] = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if word == "-m" and following.split(".")[0] in PACKAGES and following not in NOT_A_DEPENDENCY:
            modules.append(following)
        elif word == "--code" and following:
            code = root / following
            files.add(code)
            modules.extend(sorted(imported_modules(code, root)) if code.is_file() else [])
        elif word.startswith("configs/") and word.endswith(".cfg"):
            files.add(root / word)
            if _config_uses_package(root / word):
                modules.append("spacy_nseen")
        elif word.startswith("scripts/") and word.endswith(".sh"):
            files.add(root / word)
            for extra in SHELL_SCRIPT_CODE.get(word, []):
                target = root / extra
                if target.is_dir():
                    files.update(p for p in target.rglob("*.py") if "__pycache__" not in p.parts)
                    files.update(p for p in target.rglob("py.typed"))
                else:
                    files.add(target)
    return files | module_closure(modules, root)


def command_code(command: Dict, root: Path = REPO) -> List[str]:
    """RETURNS (List[str]): the repository paths (relative, sorted) that a project.yml command's script runs."""
    files: Set[Path] = set()
    for line in command.get("script", []):
        files |= script_code(line, root)
    return sorted(str(p.relative_to(root)) for p in files)


def code_entries(deps: Iterable[str]) -> List[str]:
    """RETURNS (List[str]): the deps entries that name code (the ones `--write` maintains)."""
    return [d for d in deps if CODE_ENTRY.match(d)]


def load_commands(root: Path = REPO) -> List[Dict]:
    """RETURNS (List[Dict]): project.yml's commands with the variables substituted (the full run's values)."""
    from weasel.util import load_project_config

    return load_project_config(root)["commands"]


def check(root: Path = REPO) -> Dict[str, Dict[str, List[str]]]:
    """RETURNS (Dict): per command with a difference, the code files its deps miss and the code entries that
    are not (or no longer) code it runs."""
    problems = {}
    for command in load_commands(root):
        needed = command_code(command, root)
        listed = code_entries(command.get("deps", []))
        missing = [p for p in needed if p not in listed]
        stale = [p for p in listed if p not in needed]
        if missing or stale:
            problems[command["name"]] = {"missing": missing, "stale": stale}
    return problems


def rewrite_project(root: Path = REPO) -> int:
    """Replace the code entries of each command's deps in project.yml (text edit: comments and layout kept; the
    code entries go after the hand-written ones). RETURNS (int): the number of commands changed."""
    needed = {c["name"]: command_code(c, root) for c in load_commands(root)}
    lines = (root / "project.yml").read_text(encoding="utf8").split("\n")
    out: List[str] = []
    name: Optional[str] = None
    changed = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        match = re.match(r"^  - name: \"?([\w:-]+)\"?\s*$", line)
        if match:
            name = match.group(1)
        if name in needed and re.match(r"^    deps:\s*$", line):
            block = []
            i += 1
            while i < len(lines) and re.match(r"^      (- |#)", lines[i]):
                block.append(lines[i])
                i += 1
            kept = [b for b in block if not CODE_ENTRY.match(_entry(b)) and b.strip() != CODE_COMMENT]
            new = kept + _code_lines(needed.pop(name))
            changed += new != block
            out.append(line)
            out.extend(new)
            continue
        if name in needed and re.match(r"^    outputs:\s*$", line) and needed[name]:
            out.append("    deps:")
            out.extend(_code_lines(needed.pop(name)))
            changed += 1
        out.append(line)
        i += 1
    for name, files in needed.items():
        if files:
            msg.warn(f"{name}: no deps: or outputs: block to add its code to", ", ".join(files))
    (root / "project.yml").write_text("\n".join(out), encoding="utf8")
    return changed


def _code_lines(paths: List[str]) -> List[str]:
    return [f"      {CODE_COMMENT}"] + [f'      - "{p}"' for p in paths] if paths else []


def _entry(line: str) -> str:
    return line.strip().lstrip("-").strip().strip('"')


def main(
    write: bool = typer.Option(False, "--write", help="Rewrite the code entries of project.yml's deps"),
) -> None:
    """Check (or rewrite) that every project.yml command lists the code it runs in its deps."""
    if write:
        changed = rewrite_project()
        msg.good(f"project.yml: code deps of {changed} command(s) rewritten")
        return
    problems = check()
    for name, diff in problems.items():
        msg.fail(f"{name}")
        for path in diff["missing"]:
            print(f'      - "{path}"          # missing')
        for path in diff["stale"]:
            print(f"      stale: {path}")
    if problems:
        msg.fail(f"{len(problems)} command(s) whose deps do not match their code: "
                 "python -m training.workflow.code_deps --write", exits=1)
    msg.good("every project.yml command lists the code it runs")


if __name__ == "__main__":
    typer.run(main)
