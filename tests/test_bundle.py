"""The entry modules' bundles (app/web/bundle.py): the same result as the modules, run
under Node both ways, and a refusal for syntax whose meaning a bundle would change."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.web.assets import STATIC_DIR
from app.web.bundle import BundleError, bundle

NODE = shutil.which("node")
MODULES = {
    "js/main.js": """// @ts-check
import { double, Counter } from "./lib/maths.js";
import { say as shout, LOUD } from "./words.js";
/** @typedef {import("./words.js").Word} Word */

const counter = new Counter();
counter.add(double(21));
shout(`main ${counter.total} ${LOUD}`);
export const DONE = true;
""",
    "js/words.js": """import {
  double,
} from "./lib/maths.js";

export const LOUD = double(2);
/** @param {string} text */
export function say(text) {
  console.log(text);
}
say("words");
export {};
""",
    "js/lib/maths.js": """console.log("maths");
const secret = 2;
/** @param {number} n */
export function double(n) { return n * secret; }
export class Counter {
  total = 0;
  /** @param {number} n */
  add(n) { this.total += n; }
}
export async function later() { return 1; }
""",
}


def node(path: Path) -> str:
    assert NODE is not None
    return subprocess.run([NODE, str(path)], check=True, capture_output=True,
                          text=True, timeout=60).stdout


@pytest.mark.skipif(NODE is None, reason="Node.js not installed")
def test_a_bundle_runs_as_its_modules_do(tmp_path: Path) -> None:
    for path, text in MODULES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).with_suffix(".mjs").write_text(
            text.replace('.js"', '.mjs"'), encoding="utf-8")
    joined = tmp_path / "bundle.mjs"
    joined.write_text(bundle(MODULES, "js/main.js"), encoding="utf-8")
    assert node(joined) == node(tmp_path / "js" / "main.mjs") == "maths\nwords\nmain 42 4\n"


@pytest.mark.skipif(NODE is None, reason="Node.js not installed")
def test_the_app_bundles_are_valid_scripts(tmp_path: Path) -> None:
    sources = {p.relative_to(STATIC_DIR).as_posix(): p.read_text(encoding="utf-8")
               for p in (STATIC_DIR / "js").glob("*.js")}
    for entry in ("js/room.js", "js/main.js", "js/rules.js", "js/replaypage.js"):
        out = tmp_path / Path(entry).with_suffix(".mjs").name
        out.write_text(bundle(sources, entry), encoding="utf-8")
        assert NODE is not None
        subprocess.run([NODE, "--check", str(out)], check=True, timeout=60)


@pytest.mark.parametrize("source, problem", [
    ("export let n = 1;\n", "export"),  # an importer's copy would not follow it
    ("export default 1;\n", "export"),
    ("export { a as b };\nconst a = 1;\n", "export"),
    ('import * as all from "./b.js";\n', "import"),
    ('import b from "./b.js";\n', "import"),
    ('import { a } from "./b.js";\n', "cycle"),
    ("await Promise.resolve();\n", "await"),
    ('import { a } from "./none.js";\n', "not there"),
])
def test_syntax_a_bundle_cannot_keep_is_refused(source: str, problem: str) -> None:
    modules = {"js/a.js": source, "js/b.js": 'import { c } from "./a.js";\nexport const a = c;\n'}
    with pytest.raises(BundleError, match=problem):
        bundle(modules, "js/a.js")
