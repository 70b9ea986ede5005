"""``amerikaner replay``: the real command on real files.

The spec's examples are replayed by the installed ``amerikaner`` command in a subprocess,
run inside a copy of the examples folder as docs/spec/GAME-RECORD.md says; bad files of every kind
must give one error line each, exit status 1 and never a traceback.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from shared_helpers import amerikaner

from app.replay_command import replay_file, run_replay

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "spec" / "examples"
GOOD = ["seed000-made-8.json", "seed000-down-6.json"]


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    folder = tmp_path / "examples"
    shutil.copytree(EXAMPLES, folder)
    return folder


def test_the_examples_print_their_lines(examples: Path) -> None:
    done = amerikaner("replay", *GOOD, cwd=examples, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = [json.loads((examples / name.replace(".json", ".replay.json")).read_text())
                for name in GOOD]
    assert lines(done.stdout) == expected


@pytest.mark.parametrize("name", GOOD)
def test_each_example_alone(examples: Path, name: str) -> None:
    done = amerikaner("replay", name, cwd=examples, timeout=120)
    assert done.returncode == 0
    expected = json.loads((examples / name.replace(".json", ".replay.json")).read_text())
    assert lines(done.stdout) == [expected]


def test_bad_files_give_error_lines_in_order_and_exit_1(examples: Path) -> None:
    (examples / "notjson.json").write_text("{\"format\": ")
    (examples / "sub").mkdir()
    done = amerikaner("replay", "missing.json", GOOD[0], "notjson.json", "sub", "./" + GOOD[1],
                      cwd=examples, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and done.stderr == ""
    out = lines(done.stdout)
    assert [line["file"] for line in out] == ["missing.json", GOOD[0], "notjson.json", "sub",
                                              "./" + GOOD[1]]
    assert [line["ok"] for line in out] == [False, True, False, False, True]
    for line in (out[0], out[2], out[3]):
        assert line["error"]["deal"] is None and line["error"]["action"] is None
        assert line["error"]["message"]
        assert set(line) == {"file", "ok", "error"}
    assert next(iter(out[1])) == "file"


def test_a_broken_record_exits_1_with_its_place(examples: Path) -> None:
    data = json.loads((examples / GOOD[0]).read_text())
    data["deals"][0]["actions"][8] = {"seat": 0, "play": "7D"}
    (examples / "broken.json").write_text(json.dumps(data))
    done = amerikaner("replay", "broken.json", cwd=examples, timeout=120)
    assert done.returncode == 1
    assert lines(done.stdout) == [{"file": "broken.json", "ok": False, "error": {
        "deal": 0, "action": 8, "message": "seat 0 plays 7D: you must follow hearts"}}]


BAD_CONTENT: list[tuple[str, bytes, str]] = [
    ("empty", b"", "not JSON"),
    ("truncated", b'{"format": "amerikaner-record/1", "rules": {', "not JSON"),
    ("latin-1", '{"players": ["Åse"]}'.encode("latin-1"), "UTF-8"),
    ("nan", b'{"format": NaN}', "NaN"),
    ("duplicate key", b'{"format": "amerikaner-record/1", "format": "x"}', "twice"),
    ("deep nesting", b"[" * 200_000 + b"]" * 200_000, "nested"),
    ("huge number", b"{\"format\": " + b"9" * 10_000 + b"}", "digits"),
    ("wrong format", b'{"format": "pgn"}', "format"),
    ("not an object", b"[1, 2, 3]", "object"),
    ("null", b"null", "object"),
]


@pytest.mark.parametrize(("what", "content", "words"), BAD_CONTENT,
                         ids=[w for w, _, _ in BAD_CONTENT])
def test_bad_content_gives_the_error_shape(tmp_path: Path, what: str, content: bytes,
                                           words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    line: dict[str, Any] = replay_file(str(path))
    assert line["file"] == str(path) and line["ok"] is False
    assert line["error"]["deal"] is None and line["error"]["action"] is None
    assert words in line["error"]["message"]
    json.dumps(line)


def test_a_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / GOOD[0]).read_bytes())
    assert replay_file(str(path))["ok"] is True


def test_run_replay_prints_one_line_per_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    shutil.copy(EXAMPLES / GOOD[0], good)
    assert run_replay([str(good), str(good)]) == 0
    out = lines(capsys.readouterr().out)
    assert len(out) == 2 and all(line["ok"] for line in out)
    assert run_replay([str(good), str(tmp_path / "nope.json")]) == 1
    out = lines(capsys.readouterr().out)
    assert [line["ok"] for line in out] == [True, False]
    assert "cannot read" in out[1]["error"]["message"]


def test_the_deep_nesting_goes_through_the_real_command(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "deep2.json").write_text('{"format": "amerikaner-record/1", "rules": '
                                         + "{\"a\": " * 900 + "1" + "}" * 900 + "}")
    done = amerikaner("replay", "deep.json", "deep2.json", cwd=tmp_path, timeout=120)
    assert done.returncode == 1 and done.stderr == ""
    out = lines(done.stdout)
    assert [line["ok"] for line in out] == [False, False]


def test_no_file_is_a_usage_error(tmp_path: Path) -> None:
    done = amerikaner("replay", cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and "FILE" in done.stderr
