#!/usr/bin/env python3
"""Checks the rules of miga's code layout (the design's "Code layout"; the targets are in
Package.swift) that the compiler does not enforce: one line per problem, exit status 1 if any.

- Nothing above MigaSystem calls the C library: no file under Sources/MigaCore imports
  Glibc or Musl (MigaSystem's APIs say what they do instead), nor full Foundation, which
  brings Glibc with it (FoundationEssentials, which does not, is what MigaCore uses).
- MigaCore's folders depend one way: no two folders use each other. A folder uses another
  when its code names a type the other declares (comments and string literals aside), which
  is how docs/ARCHITECTURE.md orders them.

Each rule is a function from the checkout's root to a list of problems; add one to CHECKS.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = pathlib.Path("Sources/MigaCore")

# `import X`, `@_exported import X`, `import struct X.Y`, `import X.Submodule`.
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)")
FORBIDDEN_IN_CORE = {
    "Glibc": "nothing above MigaSystem calls the C library; give MigaSystem an API for what is needed",
    "Musl": "nothing above MigaSystem calls the C library; give MigaSystem an API for what is needed",
    "Foundation": "full Foundation brings Glibc with it; import FoundationEssentials",
}


def swift_files(root, folder):
    return sorted((root / folder).rglob("*.swift"))


def core_imports_no_c_library(root):
    """Files under Sources/MigaCore that import Glibc, Musl or full Foundation."""
    problems = []
    for path in swift_files(root, CORE):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = IMPORT.match(line)
            if match and match.group(1) in FORBIDDEN_IN_CORE:
                module = match.group(1)
                problems.append(f"{path.relative_to(root)}:{number}: imports {module}: {FORBIDDEN_IN_CORE[module]}")
    return problems


DECLARATION = re.compile(
    r"^(?:(?:public|internal|fileprivate|private|final|indirect|open)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
COMMENT_OR_STRING = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"')
TYPE_NAME = re.compile(r"\b[A-Z]\w*\b")


def core_folders_use_each_other_never(root):
    """Pairs of Sources/MigaCore folders that each name a type the other declares."""
    texts = {}
    for folder in sorted(p for p in (root / CORE).iterdir() if p.is_dir()):
        texts[folder.name] = "\n".join(path.read_text(encoding="utf-8") for path in swift_files(root, folder))
    owner = {}
    for folder, text in texts.items():
        for name in DECLARATION.findall(text):
            owner.setdefault(name, folder)
    uses = {folder: {} for folder in texts}
    for folder, text in texts.items():
        for name in set(TYPE_NAME.findall(COMMENT_OR_STRING.sub("", text))):
            other = owner.get(name)
            if other and other != folder:
                uses[folder].setdefault(other, []).append(name)
    problems = []
    for a in sorted(texts):
        for b in sorted(texts):
            if a < b and b in uses[a] and a in uses[b]:
                problems.append(f"{CORE}/{a} and {CORE}/{b} use each other ({a} names {', '.join(sorted(uses[a][b]))}; "
                                f"{b} names {', '.join(sorted(uses[b][a]))}): move what both need below both")
    return problems


CHECKS = [core_imports_no_c_library, core_folders_use_each_other_never]


def main():
    root = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    problems = [problem for check in CHECKS for problem in check(root)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
