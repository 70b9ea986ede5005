"""The ``amerikaner`` command's own options."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from app.cli import main


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"amerikaner {version('amerikaner')}\n"


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([])
    assert done.value.code == 2
    assert "required" in capsys.readouterr().err
