#!/usr/bin/env python3
"""Checks the rules of miga's code layout (the design's "Code layout"; the targets are in
Package.swift) that the compiler does not enforce: one line per problem, exit status 1 if any.

- Nothing above MigaSystem calls the C library: no file of a target built on it (MigaCore,
  the `miga` commands, `miga-license`) imports Glibc or Musl (MigaSystem's APIs say what they
  do instead), nor full Foundation, which brings Glibc with it (FoundationEssentials, which
  does not, is what they use).
- MigaCore's folders depend one way. A folder uses another when its code names a type the
  other declares, nested types included (comments and string literals aside). No cycle of any
  length, and each folder uses only folders listed below it in docs/ARCHITECTURE.md's table
  of MigaCore's folders, which must list every folder.

Each rule is a function from the checkout's root to a list of problems; add one to CHECKS.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = pathlib.Path("Sources/MigaCore")
# The targets built on MigaSystem, in which nothing calls the C library directly.
ABOVE_SYSTEM = [CORE, pathlib.Path("Sources/miga"), pathlib.Path("Sources/miga-license")]
ARCHITECTURE = pathlib.Path("docs/ARCHITECTURE.md")
# `import X`, `@_exported import X`, `import struct X.Y`, `import X.Submodule`.
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")
FORBIDDEN_IN_CORE = {
    "Glibc": "nothing above MigaSystem calls the C library; give MigaSystem an API for what is needed",
    "Musl": "nothing above MigaSystem calls the C library; give MigaSystem an API for what is needed",
    "Foundation": "full Foundation brings Glibc with it; import FoundationEssentials",
}


def swift_files(root, folder):
    return sorted((root / folder).rglob("*.swift"))


def nothing_above_system_imports_the_c_library(root):
    """Files of the targets above MigaSystem that import Glibc, Musl or full Foundation."""
    problems = []
    for path in (path for target in ABOVE_SYSTEM for path in swift_files(root, target)):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = IMPORT.match(line)
            if match and match.group(1) in FORBIDDEN_IN_CORE:
                module = match.group(1)
                problems.append(f"{path.relative_to(root)}:{number}: imports {module}: {FORBIDDEN_IN_CORE[module]}")
    return problems


DECLARATION = re.compile(
    r"^[ \t]*(?:(?:public|internal|fileprivate|private|final|indirect|open|package)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
COMMENT_OR_STRING = re.compile(r'"""(?:.|\n)*?"""|//[^\n]*|/\*(?:.|\n)*?\*/|"(?:[^"\\\n]|\\.)*"')
TYPE_NAME = re.compile(r"\b[A-Z]\w*\b")
INTERPOLATION = re.compile(r"\\\((.*?)\)")


def code_only(text):
    """The text without comments and string literals, but with what a literal interpolates
    (`"\\(Celebration.ordinal(n)) time"` uses Celebration as much as code does)."""
    def keep_interpolations(match):
        literal = match.group(0)
        if literal.startswith("//") or literal.startswith("/*"):
            return ""
        return " ".join(INTERPOLATION.findall(literal))
    return COMMENT_OR_STRING.sub(keep_interpolations, text)
# Names the standard library or Foundation also gives: a nested `Result` or `Kind` declared in
# one folder says nothing about a use of the other in another.
COMMON_NAMES = {"Result", "Error", "Kind", "Element", "Index", "Key", "Value", "Options", "Output", "Input",
                "State", "Status", "Entry", "Item", "Iterator", "SubSequence", "Context", "Reason", "Problem",
                "Choice", "Step", "Row", "Line", "Part", "Mode", "Style", "Action", "Source", "Target"}


def folder_uses(root):
    """{folder: {other folder: [type names it uses from there]}} for MigaCore's folders. A name
    declared in two folders (nested types may repeat) counts for neither."""
    texts = {}
    for folder in sorted(p for p in (root / CORE).iterdir() if p.is_dir()):
        texts[folder.name] = "\n".join(path.read_text(encoding="utf-8") for path in swift_files(root, folder))
    owners = {}
    for folder, text in texts.items():
        for name in DECLARATION.findall(COMMENT_OR_STRING.sub("", text)):
            owners.setdefault(name, set()).add(folder)
    owner = {name: next(iter(folders)) for name, folders in owners.items()
             if len(folders) == 1 and name not in COMMON_NAMES}
    uses = {folder: {} for folder in texts}
    for folder, text in texts.items():
        for name in set(TYPE_NAME.findall(code_only(text))):
            other = owner.get(name)
            if other and other != folder:
                uses[folder].setdefault(other, []).append(name)
    return uses


def cycles(uses):
    """The strongly connected groups of more than one folder (Tarjan), each sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in uses[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(uses):
        if node not in index:
            visit(node)
    return groups


def core_folders_have_no_cycle(root):
    """Folders of Sources/MigaCore that reach themselves through the ones they use."""
    uses = folder_uses(root)
    problems = []
    for group in cycles(uses):
        edges = "; ".join(f"{a} names {', '.join(sorted(uses[a][b]))} of {b}"
                          for a in group for b in group if b in uses[a])
        problems.append(f"{CORE}: {', '.join(group)} use each other in a cycle ({edges}): "
                        "move what they share below them")
    return problems


def documented_order(root):
    """MigaCore's folders as docs/ARCHITECTURE.md's table lists them, top first."""
    text = (root / ARCHITECTURE).read_text(encoding="utf-8")
    start = text.index("## MigaCore's folders")
    section = text[start:text.index("\n## ", start + 1)] if "\n## " in text[start + 1:] else text[start:]
    lines = section[section.index("| folder |"):].splitlines()
    table = "\n".join(lines[:next((n for n, line in enumerate(lines) if not line.startswith("|")), len(lines))])
    return re.findall(r"^\| `([A-Za-z]+)/` \|", table, re.M)


def core_folders_follow_the_documented_order(root):
    """Folders that use one listed above them, or that the table does not list."""
    order = documented_order(root)
    uses = folder_uses(root)
    problems = [f"{CORE}/{folder} is not in {ARCHITECTURE}'s table of MigaCore's folders: add its row"
                for folder in sorted(uses) if folder not in order]
    problems += [f"{ARCHITECTURE} lists {folder}/, which {CORE} does not have"
                 for folder in order if folder not in uses]
    rank = {folder: position for position, folder in enumerate(order)}
    for folder in sorted(uses, key=lambda name: rank.get(name, -1)):
        for other, names in sorted(uses[folder].items()):
            if folder in rank and other in rank and rank[other] < rank[folder]:
                problems.append(f"{CORE}/{folder} uses {other}/ ({', '.join(sorted(names))}), which "
                                f"{ARCHITECTURE} lists above it: move what both need lower, or reorder the table")
    return problems


CHECKS = [nothing_above_system_imports_the_c_library, core_folders_have_no_cycle, core_folders_follow_the_documented_order]


def main():
    root = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    problems = [problem for check in CHECKS for problem in check(root)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
