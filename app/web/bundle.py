"""One file for a page's whole module graph, joined when the process starts.

On a phone's link each request costs a round trip, and a browser opens six connections
to a server over HTTP/1.1: the room page's 33 modules cost six rounds of 150 ms on "fast
3G" before the page can run (benchmarks/phone_network.py).  So each entry module
(``js/room.js``...) is also served as one bundle, the same code in the same order of
evaluation, each module in a function scope of its own:

    const $$m_dom = (() => {
      <dom.js without its imports, "export " dropped from its declarations>
      return Object.freeze({ el, byId });
    })();
    const $$m_room = (() => {
      const { el, byId } = $$m_dom;
      ...

It holds because the client keeps to a small subset of the module syntax, which
``bundle`` checks and refuses otherwise (the app does not start): imports are
``import { a, b as c } from "./x.js";`` at the start of a line; exports are ``export``
before a ``function``, ``async function``, ``class`` or ``const`` declaration (never
``let``: an importer's copy of a binding equals the live one only because exported
bindings are never reassigned), or ``export {};``; no cycle among the modules; no
top-level ``await``.  The modules themselves stay the source (type-checked, unit-tested
and served one by one as well).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath

IMPORT_LINE = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"(\.{1,2}/[^"]+)";?[ \t]*$',
                         re.MULTILINE)
EXPORT_DECLARATION = re.compile(
    r"^export (?=(?:async function\*? |function\*? |class |const )([A-Za-z_$][\w$]*)?)",
    re.MULTILINE)
EMPTY_EXPORT = re.compile(r"^export\s*\{\s*\};?[ \t]*$", re.MULTILINE)


class BundleError(ValueError):
    """A module uses syntax the bundle cannot keep the meaning of."""


def variable(path: str) -> str:
    return "$$m_" + re.sub(r"\W", "_", path.removesuffix(".js"))


def resolve(importer: str, spec: str) -> str:
    parts: list[str] = []
    for part in (PurePosixPath(importer).parent / spec).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def imported_names(clause: str) -> str:
    """``a, b as c`` as a destructuring pattern: ``a, b: c``."""
    names = []
    for item in clause.split(","):
        words = item.split()
        if not words:
            continue
        if len(words) == 3 and words[1] == "as":
            names.append(f"{words[0]}: {words[2]}")
        elif len(words) == 1:
            names.append(words[0])
        else:
            raise BundleError(f"import clause {item.strip()!r}")
    return ", ".join(names)


def module_scope(path: str, source: str, sources: Mapping[str, str]) -> tuple[str, list[str]]:
    """The module as one function scope, and the modules it imports."""
    deps: list[str] = []
    lines: list[str] = []

    def take_import(match: re.Match[str]) -> str:
        dep = resolve(path, match.group(2))
        if dep not in sources:
            raise BundleError(f"{path} imports {match.group(2)}, which is not there")
        deps.append(dep)
        lines.append(f"  const {{ {imported_names(match.group(1))} }} = {variable(dep)};")
        return ""

    body = IMPORT_LINE.sub(take_import, source)
    exports: list[str] = []
    for match in EXPORT_DECLARATION.finditer(body):
        if match.group(1) is None:
            raise BundleError(f"{path}: an export the bundle cannot name")
        exports.append(match.group(1))
    body = EXPORT_DECLARATION.sub("", EMPTY_EXPORT.sub("", body))
    for line in body.splitlines():
        if re.match(r"(import|export)\b", line):
            raise BundleError(f"{path}: {line.strip()!r}")
        if re.match(r"await\b", line):
            raise BundleError(f"{path}: top-level await")
    text = "\n".join(lines) + "\n" + body
    scope = (f"// {path}\nconst {variable(path)} = (() => {{\n{text}\n"
             f"return Object.freeze({{ {', '.join(exports)} }});\n}})();\n")
    return scope, deps


def bundle(sources: Mapping[str, str], entry: str) -> str:
    """Module ``entry`` and every module it imports (``sources``: path to text, paths
    relative to the static folder) as one script, in the order ES modules evaluate:
    depth first, each module after the ones it imports, in the order it imports them."""
    scopes: dict[str, str] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in scopes:
            return
        if path in visiting:
            raise BundleError(f"import cycle: {' -> '.join([*visiting, path])}")
        visiting.append(path)
        scope, deps = module_scope(path, sources[path], sources)
        for dep in deps:
            visit(dep)
        visiting.pop()
        scopes[path] = scope

    visit(entry)
    return f"// {entry} and its imports, one file (app/web/bundle.py)\n" + "".join(
        scopes.values())
