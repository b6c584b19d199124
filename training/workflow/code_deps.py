"""The code each `project.yml` command runs, so that its `deps` can name it and weasel reruns what a change affects.

    python -m training.workflow.code_deps                       # commands whose deps miss (or list stale) code
    python -m training.workflow.code_deps --write               # rewrite the code entries of project.yml's deps
    python -m training.workflow.code_deps --stamps DIR          # write DIR/<package>.sha256 (the `code-stamps` step)

A command's code is found from its script lines: `python -m training.STEP.X` (the module and its in-repo imports,
transitively: `import`/`from` statements anywhere in a file, relative ones included, each package's
`__init__.py` too), the `--code FILE` of `spacy train`/`evaluate`, a `configs/*.cfg` given to a spaCy command
(when it names an `nseen` registered function, spaCy imports `spacy_nseen` through its entry points) and
`bash scripts/X.sh` (the script; `check_wheel.sh` builds the whole runtime package into a wheel). Only files of
this repository count (`training/`, `spacy_nseen/`, `scripts/`, `configs/`, the packaging files).
`training.workflow.step_timer`, which wraps every line and only records wall times, is not a dependency.

A command's deps name the files its script lines name (its own modules, configs and shell scripts) and the stamps
of the packages it runs (`spacy_nseen` and the step folders `training/STEP`). A stamp
(`<training_dir>/code/<package>.sha256`, written by the workflows' first step `code-stamps`) lists the SHA-256 of
each file of the package and of the packages it imports (`training.tuning` imports `training.evaluation`, ...,
`spacy_nseen`), so it changes exactly when the code the package runs does. Packages are not named as directories:
weasel hashes every file under a directory dep, including the `__pycache__/*.pyc` files that Python rewrites when
a source's modification time changes (a `git checkout` would then rerun hours of training).
"""
import ast
import functools
import hashlib
import re
import shlex
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

import typer
from wasabi import msg

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("training", "spacy_nseen")
# step_timer only records wall times; code_deps writes the stamps (the `code-stamps` step, which always runs)
NOT_A_DEPENDENCY = {"training.workflow.step_timer", "training.workflow.code_deps"}
# what a shell script runs besides itself (check_wheel.sh copies the runtime package and its packaging files)
SHELL_SCRIPT_CODE = {"scripts/check_wheel.sh": ["spacy_nseen", "setup.cfg", "pyproject.toml"]}
# where a command's deps find the package stamps (project.yml's form, and the `code-stamps` step's argument)
STAMP_DIR = "${vars.training_dir}/code"
# entries of a deps list that this module maintains (after the hand-written ones, which name data)
CODE_ENTRY = re.compile(r"^(training|spacy_nseen)/.+|^configs/.+\.cfg$|^scripts/.+\.sh$|^(setup\.cfg|pyproject\.toml)$"
                        r"|^.*/code/[\w.]+\.sha256$")

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


def script_code(line: str, root: Path = REPO) -> Tuple[Set[Path], Set[Path]]:
    """RETURNS (Tuple[Set[Path], Set[Path]]): the repository files one (interpolated) script line names (its
    modules, `--code` files, configs and shell scripts), and all the repository files it runs (those, what they
    import, transitively, and what a shell script runs)."""
    words = shlex.split(line)
    named: Set[Path] = set()
    files: Set[Path] = set()
    modules: List[str] = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if word == "-m" and following.split(".")[0] in PACKAGES and following not in NOT_A_DEPENDENCY:
            modules.append(following)
            own = module_file(following, root)
            named.update([own] if own is not None else [])
        elif word == "--code" and following:
            code = root / following
            named.add(code)
            modules.extend(sorted(imported_modules(code, root)) if code.is_file() else [])
        elif word.startswith("configs/") and word.split("#")[0].endswith(".cfg"):
            word = word.split("#")[0]  # `configs/pipeline.cfg#chebi`: a reference set's settings in the config
            named.add(root / word)
            if _config_uses_package(root / word):
                modules.append("spacy_nseen")
        elif word.startswith("scripts/") and word.endswith(".sh"):
            named.add(root / word)
            for extra in SHELL_SCRIPT_CODE.get(word, []):
                target = root / extra
                files.update(package_files(extra, root) if target.is_dir() else [target])
    return named, named | files | module_closure(modules, root)


def package_of(path: Path, root: Path = REPO) -> Optional[str]:
    """RETURNS (Optional[str]): the stamped package a repository file belongs to (`spacy_nseen`, or a step folder
    such as `training.data`), or None (configs, scripts, packaging files, `training/__init__.py`)."""
    parts = path.relative_to(root).parts
    if parts[0] == "spacy_nseen" and len(parts) > 1:
        return "spacy_nseen"
    if parts[0] == "training" and len(parts) > 2:
        return f"training.{parts[1]}"
    return None


def package_files(package: str, root: Path = REPO) -> List[Path]:
    """RETURNS (List[Path]): the files of a stamped package (its `.py` files and `py.typed`; never `__pycache__`),
    sorted; a `training` step folder's stamp also covers `training/__init__.py`."""
    folder = root.joinpath(*package.split("."))
    files = [p for p in folder.rglob("*") if p.is_file() and (p.suffix == ".py" or p.name == "py.typed")
             and "__pycache__" not in p.parts]
    if package.startswith("training.") and (root / "training" / "__init__.py").is_file():
        files.append(root / "training" / "__init__.py")
    return sorted(files)


def stamped_packages(root: Path = REPO) -> List[str]:
    """RETURNS (List[str]): every stamped package: `spacy_nseen` and each step folder of `training/`."""
    steps = sorted(p.parent.name for p in (root / "training").glob("*/__init__.py"))
    return (["spacy_nseen"] if (root / "spacy_nseen").is_dir() else []) + [f"training.{step}" for step in steps]


def package_closure(package: str, root: Path = REPO) -> Set[str]:
    """RETURNS (Set[str]): the package and every stamped package its files import, transitively (`training.tuning`
    → `training.evaluation`, `training.linker`, ..., `spacy_nseen`)."""
    found: Set[str] = set()
    todo = [package]
    while todo:
        current = todo.pop()
        if current in found:
            continue
        found.add(current)
        for path in package_files(current, root):
            for module in imported_modules(path, root):
                imported = module_file(module, root)
                other = package_of(imported, root) if imported is not None else None
                if other is not None and other not in found:
                    todo.append(other)
    return found


def stamp_text(package: str, root: Path = REPO) -> str:
    """RETURNS (str): a package's stamp: one `<sha256>  <path>` line (the `sha256sum` format) per file of the
    package and of the packages it imports (`package_closure`), so it changes when any code the package runs does."""
    files = sorted({p for member in package_closure(package, root) for p in package_files(member, root)})
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(root).as_posix()}" for p in files]
    return "\n".join(lines) + "\n"


def write_stamps(directory: Path, root: Path = REPO) -> List[Path]:
    """Write `<directory>/<package>.sha256` for every stamped package (a file is only rewritten when its text
    changes). RETURNS (List[Path]): the stamps."""
    directory.mkdir(parents=True, exist_ok=True)
    stamps = []
    for package in stamped_packages(root):
        stamp = directory / f"{package}.sha256"
        text = stamp_text(package, root)
        if not stamp.is_file() or stamp.read_text(encoding="utf8") != text:
            stamp.write_text(text, encoding="utf8")
        stamps.append(stamp)
    return stamps


def command_code(command: Dict, root: Path = REPO, stamp_dir: str = STAMP_DIR) -> List[str]:
    """RETURNS (List[str]): the deps entries of the code a project.yml command's script runs: the files its lines
    name and the packaging files they use (relative paths, sorted), then the stamps of the fewest packages whose
    closures hold all the code they import (a package another one imports is covered by that one's stamp). A
    command without outputs names no stamps: weasel always runs it, and its deps would only demand that the
    stamps exist (`demo` runs on a fresh checkout, before any `code-stamps`)."""
    named: Set[Path] = set()
    files: Set[Path] = set()
    for line in command.get("script", []):
        line_named, line_files = script_code(line, root)
        named |= line_named
        files |= line_files
    packages = {package for package in (package_of(p, root) for p in files) if package is not None}
    closures = {package: package_closure(package, root) for package in packages}
    covered = {p for p in packages for q in packages if q != p and p in closures[q] and q not in closures[p]}
    listed = named | {p for p in files if package_of(p, root) is None and p != root / "training" / "__init__.py"}
    stamps = sorted(packages - covered) if command.get("outputs") else []
    return sorted(p.relative_to(root).as_posix() for p in listed) + [f"{stamp_dir}/{package}.sha256" for package in stamps]


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
    from weasel.util import load_project_config

    config = load_project_config(root)
    stamp_dir = STAMP_DIR.replace("${vars.training_dir}", str(config["vars"].get("training_dir", "")))
    problems = {}
    for command in config["commands"]:
        needed = command_code(command, root, stamp_dir)
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
            kept = [b for b in block if not CODE_ENTRY.match(_entry(b))]
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
    return [f'      - "{p}"' for p in paths]


def _entry(line: str) -> str:
    return line.strip().lstrip("-").strip().strip('"')


def main(
    write: bool = typer.Option(False, "--write", help="Rewrite the code entries of project.yml's deps"),
    stamps: Optional[Path] = typer.Option(None, "--stamps", help="Write the package stamps into this directory"),
) -> None:
    """Check (or rewrite) that every project.yml command lists the code it runs in its deps, or write the stamps."""
    if stamps is not None:
        written = write_stamps(stamps)
        msg.good(f"{len(written)} package stamps in {stamps}")
        return
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
