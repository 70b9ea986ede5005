"""The static files, read, hashed and compressed once when the process starts.

Every file under ``app/static`` has two addresses: its own (``/static/js/dom.js``) and a
versioned one carrying a hash of its content (``/static/js/dom.1a2b3c4d5e.js``).  Pages
only ever name the versioned one, which never changes meaning, so browsers keep it for a
year without asking again (``immutable``); a changed file gets a new address.  The plain
address still answers, revalidated each time (``no-cache`` with an ``ETag``).

The client is plain ES modules with no build step: their imports name plain addresses
(``./dom.js``).  An import map in each page (``importmap``) maps every plain address to
its versioned one, so the browser fetches, and caches, only versioned files; the client
finds its other files (catalogues, the suit sprite) through the same map with
``import.meta.resolve``.  The map is an inline script: the page's Content-Security-Policy
allows it by its SHA-256 (``importmap_hash``), never by ``unsafe-inline``.  A page's own
script is its entry module's bundle (app/web/bundle.py: the whole module graph in one
file, ``/static/bundles/room.<hash>.js``), made here too.

Text files are gzipped once here (level 9) and sent so to a client that accepts gzip;
the same bytes for every request, nothing compressed per request.  Several processes
behind nginx compute the same hashes from the same files.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from app.web.bundle import bundle, resolve

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_LENGTH = 10  # hex digits of SHA-256 in a versioned name: 40 bits, no collision among ours
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")
# files the pages reach through the import map: modules, catalogues, card pictures
MAPPED_DIRS = ("js/", "i18n/", "cards/")
BUNDLES = "bundles/"  # where the entry modules' bundles are served (not a folder on disk)
# a module's static imports: `import ... from "./x.js"`, `export ... from "./x.js"` and
# `import "./x.js"` at the start of a line (JSDoc's `import("./x.js")` types are not)
IMPORT_RE = re.compile(r'^(?:import|export)\b[^;"]*?(?:\bfrom\s*)?"(\.{1,2}/[^"]+)"',
                       re.MULTILINE)
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json", ".svg": "image/svg+xml",
         ".html": "text/html; charset=utf-8"}


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file: its bytes, gzipped bytes (None when gzip would not shrink it),
    content type, hash and versioned address."""

    path: str  # relative to the static folder, with "/" ("js/dom.js")
    body: bytes
    gzipped: bytes | None
    media_type: str
    digest: str  # HASH_LENGTH hex digits of the SHA-256 of body

    @property
    def url(self) -> str:
        return PREFIX + self.path

    @property
    def versioned_path(self) -> str:
        name = PurePosixPath(self.path)
        return str(name.with_name(f"{name.stem}.{self.digest}{name.suffix}"))

    @property
    def versioned_url(self) -> str:
        return PREFIX + self.versioned_path

    @property
    def etag(self) -> str:
        return f'"{self.digest}"'

    @property
    def etag_gzip(self) -> str:
        return f'"{self.digest}-gzip"'


def media_type(path: Path) -> str:
    return TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or \
        "application/octet-stream"


def compressible(media: str) -> bool:
    return media.startswith(COMPRESSED_TYPES)


def make_asset(path: str, body: bytes, media: str) -> Asset:
    gzipped: bytes | None = None
    if compressible(media):
        # mtime=0: the same bytes in every process and every start
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(body) else None
    return Asset(path=path, body=body, gzipped=gzipped, media_type=media,
                 digest=hashlib.sha256(body).hexdigest()[:HASH_LENGTH])


def load_asset(root: Path, file: Path) -> Asset:
    return make_asset(file.relative_to(root).as_posix(), file.read_bytes(), media_type(file))


def module_imports(source: str) -> list[str]:
    """The relative specifiers a module imports statically."""
    return IMPORT_RE.findall(source)


class Assets:
    """Every file of a static folder, by plain and by versioned path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Asset] = {}
        self.by_path: dict[str, tuple[Asset, bool]] = {}  # path -> (asset, versioned)
        for file in sorted(root.rglob("*")):
            if not file.is_file() or file.name.startswith("."):
                continue
            asset = load_asset(root, file)
            self.files[asset.path] = asset
        self.bundles = self.make_bundles()
        for asset in [*self.files.values(), *self.bundles.values()]:
            self.by_path[asset.path] = (asset, False)
            self.by_path.setdefault(asset.versioned_path, (asset, True))
        self.importmap = json.dumps(
            {"imports": {a.url: a.versioned_url for a in self.files.values()
                         if a.path.startswith(MAPPED_DIRS)}},
            separators=(",", ":"), sort_keys=True)
        digest = hashlib.sha256(self.importmap.encode()).digest()
        self.importmap_hash = "sha256-" + base64.b64encode(digest).decode()

    def lookup(self, path: str) -> tuple[Asset, bool] | None:
        """The file at ``path`` (relative to the static folder) and whether ``path`` is its
        versioned name; None if there is none."""
        return self.by_path.get(path)

    def url(self, path: str) -> str:
        """The versioned address of the file at ``path`` (for templates)."""
        return self.files[path].versioned_url

    def make_bundles(self) -> dict[str, Asset]:
        """A bundle (app/web/bundle.py) of each entry module: a module under js/ that
        imports others and that no other imports (a page's script)."""
        sources = {path: asset.body.decode("utf-8") for path, asset in self.files.items()
                   if path.startswith("js/") and path.endswith(".js")}
        imports = {path: [resolve(path, spec) for spec in module_imports(text)]
                   for path, text in sources.items()}
        imported = {dep for deps in imports.values() for dep in deps}
        return {entry: make_asset(f"{BUNDLES}{PurePosixPath(entry).name}",
                                  bundle(sources, entry).encode("utf-8"), TYPES[".js"])
                for entry, deps in sorted(imports.items()) if deps and entry not in imported}

    def bundle_url(self, entry: str) -> str:
        """The versioned address of the bundle of entry module ``entry`` (``js/room.js``)."""
        return self.bundles[entry].versioned_url


@cache
def static_assets() -> Assets:
    """The app's own static files, read once per process."""
    return Assets(STATIC_DIR)
