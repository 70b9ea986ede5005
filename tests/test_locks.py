"""The dependency locks (requirements/*.txt, made by scripts/lock.py) agree with
pyproject.toml: each was made from today's declarations (the digest in its header), pins
every declared package at a version inside the declared range, hashes every pin, and
the server's lock is the test lock's versions, so what the tests ran is what is served.
Also: the suite runs in the environment made from the lock, not in whatever the machine
had installed (scripts/test.sh, scripts/venv.sh)."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tomllib
from importlib.metadata import distributions
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"


def _lock_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock_script", ROOT / "scripts" / "lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LOCK = _lock_module()


def declared(*extras: str) -> list[Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    texts = list(data["project"]["dependencies"]) + list(data["build-system"]["requires"])
    for extra in extras:
        texts += data["project"]["optional-dependencies"][extra]
    return [Requirement(t) for t in texts]


@pytest.mark.parametrize("name", sorted(LOCK.LOCK_EXTRAS))
def test_each_lock_was_made_from_todays_pyproject(name: str) -> None:
    assert LOCK.lock_digest(LOCKS / name) == LOCK.declared_digest(), (
        f"requirements/{name} was made from other declarations than pyproject.toml's: "
        "run `python3 scripts/lock.py` (or `--keep` to change only what must change)")


@pytest.mark.parametrize("name", sorted(LOCK.LOCK_EXTRAS))
def test_each_declared_package_is_pinned_inside_its_range(name: str) -> None:
    pins = LOCK.pinned(LOCKS / name)
    for req in declared(*LOCK.LOCK_EXTRAS[name]):
        key = canonicalize_name(req.name)
        assert key in pins, f"{req.name} is declared but not in requirements/{name}"
        assert req.specifier.contains(pins[key], prereleases=True), (
            f"requirements/{name} pins {req.name}=={pins[key]}, outside {req.specifier}")


@pytest.mark.parametrize("name", [*sorted(LOCK.LOCK_EXTRAS), "uv.txt"])
def test_every_pin_is_exact_and_hashed(name: str) -> None:
    text = (LOCKS / name).read_text(encoding="utf-8")
    # a requirement is a line that starts a name; its hashes follow on continuation lines
    # (the header's comment lines make a block of their own, dropped below)
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    reqs = [b for b in blocks if b and not b.startswith("#")]
    assert reqs
    for block in reqs:
        first = block.splitlines()[0]
        assert "==" in first, f"not an exact pin in requirements/{name}: {first}"
        assert "--hash=sha256:" in block, f"no hash for {first} in requirements/{name}"


def test_the_installer_lock_is_the_resolvers_uv() -> None:
    """scripts/venv.sh installs with the uv that scripts/lock.py resolves with, and only it."""
    name, version = LOCK.UV.split("==")
    assert LOCK.pinned(LOCKS / "uv.txt") == {name: version}, (
        "requirements/uv.txt is not scripts/lock.py's UV: run `python3 scripts/lock.py --keep`")


def test_the_server_lock_has_the_test_locks_versions() -> None:
    serve = LOCK.pinned(LOCKS / "serve.txt")
    test = LOCK.pinned(LOCKS / "test.txt")
    assert serve, "requirements/serve.txt pins nothing"
    differ = {n: (v, test.get(n)) for n, v in serve.items() if test.get(n) != v}
    assert differ == {}, "serve.txt and test.txt disagree (serve, test): " + repr(differ)


def test_the_digest_moves_with_any_declared_range(tmp_path: Path) -> None:
    """The check can fail: widening one range gives another digest."""
    original = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed = original.replace('"jinja2>=3.1"', '"jinja2>=3.0"')
    assert changed != original
    (tmp_path / "pyproject.toml").write_text(changed, encoding="utf-8")
    assert LOCK.declared_digest(tmp_path / "pyproject.toml") != LOCK.declared_digest()


def test_the_suite_runs_in_the_locked_environment() -> None:
    """scripts/test.sh runs pytest from the virtual environment made from test.txt: every
    installed distribution there is pinned by the lock, at the locked version."""
    if os.environ.get("AMERIKANER_UNLOCKED"):
        pytest.skip("scripts/test-latest.sh runs the newest releases on purpose")
    if sys.prefix == sys.base_prefix:
        pytest.skip("not in a virtual environment: run through scripts/test.sh")
    pins = LOCK.pinned(LOCKS / "test.txt")
    extra = {}
    for dist in distributions():
        name = canonicalize_name(dist.metadata["Name"])
        if name in {"amerikaner", "pip"}:
            continue  # the project itself, and the venv's own installer
        if pins.get(name) != dist.version:
            extra[name] = (dist.version, pins.get(name))
    assert extra == {}, "installed (version, locked) outside the lock: " + repr(extra)
