"""Refresh the dependency locks in `requirements/` from `pyproject.toml`.

    python3 scripts/lock.py            # re-resolve: the newest versions the ranges allow
    python3 scripts/lock.py --check    # exit 1 when pyproject.toml and the locks disagree

The locks are pip's hashed requirements files (pip-tools' format, written by `uv pip
compile --generate-hashes --universal`), read by plain `pip install --require-hashes`,
so the server, the Dockerfile and the tests install with nothing but pip
(docs/operations.md, "Dependencies", says why this format):

- `requirements/serve.txt`: the runtime, the `postgres` extra and the build backend
  (setuptools, so the project itself installs with `--no-build-isolation` and nothing
  unlocked is fetched to build it);
- `requirements/test.txt`: all of that plus the `test` extra, at the same versions;
- `requirements/uv.txt`: the pinned uv itself, hashed, which `scripts/venv.sh` installs
  first (with pip) to install the other locks in seconds rather than pip's half minute.

Each lock starts with the digest of the dependency declarations it was made from; the
test suite (tests/test_locks.py) fails when the two disagree, so a changed range in
pyproject.toml cannot land without its lock.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
# The resolver itself is pinned: another uv may order or mark the same set differently.
UV = "uv==0.13.9"
PYTHON = "3.11"
DIGEST_PREFIX = "# pyproject-sha256: "
# What each lock holds, by the extras of pyproject.toml it takes.
LOCK_EXTRAS: dict[str, tuple[str, ...]] = {
    "test.txt": ("test", "postgres"),
    "serve.txt": ("postgres",),
}


def declarations(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, object]:
    """The parts of pyproject.toml a lock is made from."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    extras = data["project"].get("optional-dependencies", {})
    return {
        "python": PYTHON,
        "build": sorted(data["build-system"]["requires"]),
        "dependencies": sorted(data["project"]["dependencies"]),
        "extras": {name: sorted(extras.get(name, [])) for name in ("test", "postgres")},
    }


def declared_digest(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """A digest of the declarations: any change to a range means a new lock."""
    canonical = json.dumps(declarations(pyproject), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def lock_digest(lock: Path) -> str | None:
    """The digest a lock file says it was made from, or None."""
    for line in lock.read_text(encoding="utf-8").splitlines():
        if line.startswith(DIGEST_PREFIX):
            return line[len(DIGEST_PREFIX) :].strip()
    return None


def pinned(lock: Path) -> dict[str, str]:
    """Name (normalised) to version of every `name==version` line of a lock."""
    pins: dict[str, str] = {}
    for raw in lock.read_text(encoding="utf-8").splitlines():
        line = raw.split(";", 1)[0].strip().rstrip("\\").strip()
        if not line or line.startswith(("#", "-")) or "==" not in line:
            continue
        name, version = line.split("==", 1)
        base = name.split("[", 1)[0].strip()
        pins[base.lower().replace("_", "-").replace(".", "-")] = version.strip()
    return pins


def compile_locks(uv: Path, upgrade: bool) -> None:
    """Write every lock with the pinned uv; serve.txt is held to test.txt's versions."""
    digest = declared_digest()
    build = LOCKS / "build.in"
    build.write_text(
        "# the build backend, locked so the project installs without build isolation\n"
        + "\n".join(declarations()["build"])  # type: ignore[arg-type]
        + "\n",
        encoding="utf-8",
    )
    for name in ("test.txt", "serve.txt"):
        out = LOCKS / name
        cmd = [
            str(uv), "pip", "compile", "--quiet", "--universal", "--generate-hashes",
            "--python-version", PYTHON, "--no-header", "--index-url", "https://pypi.org/simple",
            "pyproject.toml", "requirements/build.in", "-o", str(out),
        ]
        for extra in LOCK_EXTRAS[name]:
            cmd += ["--extra", extra]
        if name == "serve.txt":
            cmd += ["--constraint", "requirements/test.txt"]
        if upgrade:
            cmd.append("--upgrade")
        subprocess.run(cmd, cwd=ROOT, check=True)
        body = out.read_text(encoding="utf-8")
        header = (
            f"# Locked dependencies: {' + '.join(('runtime',) + LOCK_EXTRAS[name])} + build.\n"
            "# Made by `python3 scripts/lock.py`; do not edit by hand.\n"
            f"{DIGEST_PREFIX}{digest}\n"
        )
        out.write_text(header + body, encoding="utf-8")
    # The installer scripts/venv.sh uses, at the resolver's own version.
    with tempfile.TemporaryDirectory(prefix="amerikaner-uv-") as tmp:
        wanted = Path(tmp) / "uv.in"
        wanted.write_text(UV + "\n", encoding="utf-8")
        subprocess.run(
            [str(uv), "pip", "compile", "--quiet", "--universal", "--generate-hashes",
             "--python-version", PYTHON, "--no-header", "--index-url", "https://pypi.org/simple",
             wanted.name, "-o", str(LOCKS / "uv.txt")],
            cwd=tmp, check=True,  # (a relative input: the file's "via" line stays the same)
        )
    installer = LOCKS / "uv.txt"
    installer.write_text(
        "# The installer of scripts/venv.sh: uv, at scripts/lock.py's pinned version.\n"
        "# Made by `python3 scripts/lock.py`; do not edit by hand.\n"
        + installer.read_text(encoding="utf-8"),
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    parser.add_argument(
        "--keep", action="store_true",
        help="keep the versions already locked where the ranges still allow them",
    )
    args = parser.parse_args(argv)
    if args.check:
        want = declared_digest()
        stale = [n for n in LOCK_EXTRAS if lock_digest(LOCKS / n) != want]
        for name in stale:
            print(f"requirements/{name} is stale: run python3 scripts/lock.py", file=sys.stderr)
        return 1 if stale else 0
    LOCKS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="amerikaner-lock-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", UV],
            check=True,
        )
        compile_locks(venv / "bin" / "uv", upgrade=not args.keep)
    print("locks written: " + ", ".join(f"requirements/{n}" for n in (*LOCK_EXTRAS, "uv.txt")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
