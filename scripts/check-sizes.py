#!/usr/bin/env python3
"""Checks that miga's code stays in pieces a reader can hold: one line per problem, exit
status 1 if any.

- No source file over MAX_FILE_LINES lines (Swift under Sources/ and Plugins/, and the
  browser extension's JavaScript under browser/, the GNOME Shell extension's under
  gnome-shell/).
- No function over MAX_FUNCTION_LINES lines, counted from the line that declares it to the
  line of its closing brace (Swift: func, init, deinit, subscript; JavaScript: function
  declarations and expressions, methods and arrow functions with a block body). A nested
  function counts within its outer one too.

Comments and string literals are skipped when braces are counted, so a brace in a message or
a regular expression does not end a function early.

ALLOWED below lists, with the reason for each, what may be larger for now.
"""
import fnmatch
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80

# Where the checked sources are: (folder, glob).
SOURCES = [("Sources", "**/*.swift"), ("Plugins", "**/*.swift"), ("browser", "**/*.js"),
           ("gnome-shell", "**/*.js")]

# (path glob, function name or "*" for every function and the file's length). Each entry
# says why it may be larger; remove an entry once its file fits.
ALLOWED = [
    # The URL parser is the WHATWG URL Standard's basic URL parser: one state machine whose
    # states follow the specification's text one for one, so a reader can check it against
    # the standard side by side. Split, it would no longer read like the standard.
    ("Sources/WHATWGURL/URLParser.swift", "step"),
]


def allowed(path, name):
    return any(fnmatch.fnmatch(path, pattern) and (entry == "*" or entry == name)
               for pattern, entry in ALLOWED)


# ---------------------------------------------------------------------------------------
# Code without comments and string literals: every character of a comment or a literal
# becomes a space (newlines stay), so line numbers and braces in code are unchanged.

def blank_line_comment(text, index, out):
    """Blanks the `//` comment at index up to its line's end, and returns that end."""
    end = text.find("\n", index)
    end = len(text) if end < 0 else end
    blank(text, index, end, out)
    return end


def blank(text, start, end, out):
    for index in range(start, end):
        out[index] = "\n" if text[index] == "\n" else " "


def swift_code(text):
    """The Swift source with its comments and string literals blanked out (interpolations
    inside strings are kept as code, as they may hold braces of closures)."""
    out = list(text)
    index = 0
    # A stack of the string contexts an interpolation is inside: (delimiter, pounds, depth
    # of parentheses within the interpolation).
    interpolations = []
    length = len(text)
    while index < length:
        char = text[index]
        if interpolations and char == "(":
            interpolations[-1][2] += 1
        elif interpolations and char == ")":
            interpolations[-1][2] -= 1
            if interpolations[-1][2] == 0:
                delimiter, pounds, _ = interpolations.pop()
                index = skip_swift_string(text, index + 1, delimiter, pounds, out, interpolations)
                continue
        if text.startswith("//", index):
            index = blank_line_comment(text, index, out)
        elif text.startswith("/*", index):
            end, depth = index + 2, 1
            while end < length and depth:
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
            blank(text, index, end, out)
            index = end
        elif char == '"' or (char == "#" and re.match(r'#+"', text[index:])):
            pounds = len(re.match(r"#*", text[index:]).group(0))
            start = index + pounds
            delimiter = '"""' if text.startswith('"""', start) else '"'
            index = skip_swift_string(text, start + len(delimiter), delimiter, pounds, out, interpolations)
        else:
            index += 1
    return "".join(out)


def skip_swift_string(text, index, delimiter, pounds, out, interpolations):
    """Blanks a string's text from index to its closing delimiter, or to an interpolation
    (which it records on the stack). Returns where code resumes."""
    escape = "\\" + "#" * pounds
    closing = delimiter + "#" * pounds
    start = index
    while index < len(text):
        if text.startswith(escape + "(", index):
            blank(text, start, index, out)
            interpolations.append([delimiter, pounds, 1])
            return index + len(escape) + 1
        if text.startswith(escape, index):
            index += len(escape) + 1
            continue
        if text.startswith(closing, index):
            blank(text, start, index, out)
            return index + len(closing)
        if delimiter == '"' and text[index] == "\n":
            break
        index += 1
    blank(text, start, index, out)
    return index


# A regular expression literal may follow these (otherwise `/` divides).
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}


def js_code(text):
    """The JavaScript source with comments, strings, template literals (their ${} kept as
    code) and regular expression literals blanked out."""
    out = list(text)
    index, length = 0, len(text)
    templates = []  # depth of braces inside each open ${…}
    previous = ""  # the last character of code before this one that is not a space
    while index < length:
        char = text[index]
        if templates and char == "{":
            templates[-1] += 1
        elif templates and char == "}":
            templates[-1] -= 1
            if templates[-1] == 0:
                templates.pop()
                index = skip_template(text, index + 1, out, templates)
                previous = "`"
                continue
        if text.startswith("//", index):
            index = blank_line_comment(text, index, out)
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end < 0 else end + 2
            blank(text, index, end, out)
            index = end
            continue
        if char in "'\"":
            end = index + 1
            while end < length and text[end] not in (char, "\n"):
                end += 2 if text[end] == "\\" else 1
            blank(text, index + 1, end, out)
            index, previous = end + 1, char
            continue
        if char == "`":
            index, previous = skip_template(text, index + 1, out, templates), "`"
            continue
        if char == "/" and (previous in REGEX_AFTER or re.search(r"\b(return|typeof|case|of|in)\s*$", text[max(0, index - 10):index])):
            end, in_class = index + 1, False
            while end < length and text[end] != "\n" and (in_class or text[end] != "/"):
                if text[end] == "\\":
                    end += 1
                elif text[end] == "[":
                    in_class = True
                elif text[end] == "]":
                    in_class = False
                end += 1
            blank(text, index + 1, end, out)
            index, previous = end + 1, "/"
            continue
        if not char.isspace():
            previous = char
        index += 1
    return "".join(out)


def skip_template(text, index, out, templates):
    start = index
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text.startswith("${", index):
            blank(text, start, index, out)
            templates.append(1)
            return index + 2
        if text[index] == "`":
            blank(text, start, index, out)
            return index + 1
        index += 1
    blank(text, start, index, out)
    return index


# ---------------------------------------------------------------------------------------
# Functions: (name, first line, last line) for each body found in the code.

def matching(code, opening, pair):
    """The index of the bracket that closes the one at `opening` (`pair`: "{}" or "()"), or
    None when the code ends first."""
    depth = 0
    for index in range(opening, len(code)):
        if code[index] == pair[0]:
            depth += 1
        elif code[index] == pair[1]:
            depth -= 1
            if depth == 0:
                return index
    return None


def closing_brace(code, opening):
    found = matching(code, opening, "{}")
    return len(code) - 1 if found is None else found


def line_of(code, index):
    return code.count("\n", 0, index) + 1


SWIFT_FUNCTION = re.compile(r"(?<![\w.])(func\s+(?:`?[\w]+`?|[^\s(<]+)|init[?!]?|deinit|subscript)(?=[\s(<{])")
# Where a declaration without a body (a protocol's requirement) ends: another declaration.
SWIFT_NEXT_DECLARATION = re.compile(r"\n\s*(?:@\w+\s+)*(?:(?:public|private|fileprivate|internal|static|class|mutating|nonmutating|override|final|required|convenience|nonisolated|open)\s+)*(?:func|var|let|init|deinit|subscript|case|typealias|associatedtype|struct|class|enum|protocol|actor|extension)\b")


def swift_functions(code):
    functions = []
    for match in SWIFT_FUNCTION.finditer(code):
        name = match.group(1).split()[-1].strip("`") if match.group(1).startswith("func") else match.group(1).rstrip("?!")
        opening = swift_body(code, match.end())
        if opening is not None:
            functions.append((name, line_of(code, match.start()), line_of(code, closing_brace(code, opening))))
    return functions


def swift_body(code, index):
    """Where the body of the declaration whose signature starts at index opens, or None."""
    depth = 0
    while index < len(code):
        char = code[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0 and char == "{":
            return index
        elif depth == 0 and char in "}=":
            return None
        elif depth == 0 and char == "\n" and SWIFT_NEXT_DECLARATION.match(code, index):
            return None
        index += 1
    return None


JS_FUNCTION = re.compile(
    r"\bfunction\b\s*\*?\s*(\w*)\s*\("  # function name( and function (
    r"|^\s*(?:static\s+|async\s+|get\s+|set\s+)*(\w+)\s*\(|"  # method( at the start of a line
    r"(=>)\s*\{", re.M)
JS_NOT_METHOD = {"if", "for", "while", "switch", "catch", "with", "return", "function"}


def js_functions(code):
    functions = []
    for match in JS_FUNCTION.finditer(code):
        if match.group(3):
            opening = match.end() - 1
            name = js_arrow_name(code, match.start())
        else:
            name = match.group(1) if match.group(1) is not None else match.group(2)
            if match.group(2) in JS_NOT_METHOD:
                continue
            opening = js_body(code, match.end() - 1)
            if opening is None:
                continue
        functions.append((name or "(anonymous)", line_of(code, match.start()), line_of(code, closing_brace(code, opening))))
    return functions


def js_body(code, parenthesis):
    """The brace that opens a body right after the parameter list at parenthesis, or None
    (a call, not a declaration)."""
    index = matching(code, parenthesis, "()")
    if index is None:
        return None
    rest = re.match(r"\s*\{", code[index + 1:])
    return index + rest.end() if rest else None


def js_arrow_name(code, arrow):
    line_start = code.rfind("\n", 0, arrow) + 1
    named = re.search(r"(\w+)\s*[=:]\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*$", code[line_start:arrow])
    return named.group(1) if named else "(arrow)"


# ---------------------------------------------------------------------------------------

def problems_in(root, path):
    relative = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8")
    problems = []
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_FILE_LINES and not allowed(relative, "*"):
        problems.append(f"{relative}: {lines} lines (at most {MAX_FILE_LINES}): split it into files by job")
    functions = swift_functions(swift_code(text)) if path.suffix == ".swift" else js_functions(js_code(text))
    for name, first, last in functions:
        size = last - first + 1
        if size > MAX_FUNCTION_LINES and not allowed(relative, name):
            problems.append(f"{relative}:{first}: {name} is {size} lines (at most {MAX_FUNCTION_LINES}): split it into functions named after what they do")
    return problems


def main(arguments):
    root = pathlib.Path(arguments[0]).resolve() if arguments else ROOT
    problems = []
    for folder, pattern in SOURCES:
        for path in sorted((root / folder).glob(pattern)):
            problems.extend(problems_in(root, path))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
