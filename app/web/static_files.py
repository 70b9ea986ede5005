"""Answers for ``/static/...`` from the files read at start (``assets.static_assets``), and
gzip for a page when the client accepts it.

A versioned address (``/static/js/dom.1a2b3c4d5e.js``) is cached for a year, immutable:
its content never changes.  A plain address (``/static/js/dom.js``) is revalidated each
time with its ETag (``304 Not Modified`` when unchanged).  Either is sent gzipped, from
bytes compressed once at start, to a client whose ``Accept-Encoding`` takes gzip; the
answer varies by that header (``Vary``) so that no cache serves gzip to a client without.
"""

from __future__ import annotations

import gzip
from collections.abc import Awaitable, Callable
from typing import TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from app.web.assets import IMMUTABLE, REVALIDATE, Asset, Assets

ResponseT = TypeVar("ResponseT", bound=Response)

GZIP = "gzip"
PAGE_MIN_BYTES = 1024  # a smaller page gains less than gzip's own overhead
PAGE_LEVEL = 6  # zlib's default: a few dozen microseconds for a page of a few KiB


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip: named with a q above 0, or not
    named and ``*`` is (RFC 9110, 12.5.3)."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        coding, _, params = part.strip().partition(";")
        q = params.strip()
        try:
            weight = float(q[2:]) if q.startswith("q=") else 1.0
        except ValueError:
            weight = 0.0
        weights[coding.strip().lower()] = weight
    return weights.get(GZIP, weights.get("*", 0.0)) > 0


def etag_matches(if_none_match: str, etag: str) -> bool:
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return etag in tags or "*" in tags


def asset_response(request: Request, asset: Asset, versioned: bool) -> Response:
    gzipped = asset.gzipped is not None and accepts_gzip(
        request.headers.get("accept-encoding", ""))
    # each representation its own tag: a cache never takes the gzipped bytes for the plain
    etag = asset.etag_gzip if gzipped else asset.etag
    headers = {"Cache-Control": IMMUTABLE if versioned else REVALIDATE, "ETag": etag}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if etag_matches(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    body = asset.body
    if gzipped and asset.gzipped is not None:
        body = asset.gzipped
        headers["Content-Encoding"] = GZIP
    headers["Content-Length"] = str(len(body))
    if request.method == "HEAD":
        body = b""
    return Response(body, headers=headers, media_type=asset.media_type)


def static_endpoint(assets: Assets) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of ``/static/{path:path}`` over ``assets``."""

    async def serve(request: Request) -> Response:
        found = assets.lookup(request.path_params["path"])
        if found is None:
            raise HTTPException(status_code=404, detail="Not Found")
        return asset_response(request, *found)

    return serve


def compress_page(request: Request, response: ResponseT) -> ResponseT:
    """``response`` (a page, whole in memory) gzipped if the client takes gzip and the page
    is worth it; pages are never cached without asking (``no-cache``)."""
    response.headers["Cache-Control"] = REVALIDATE
    response.headers["Vary"] = "Accept-Encoding"
    if len(response.body) < PAGE_MIN_BYTES or not accepts_gzip(
            request.headers.get("accept-encoding", "")):
        return response
    response.body = gzip.compress(response.body, compresslevel=PAGE_LEVEL)
    response.headers["Content-Encoding"] = GZIP
    response.headers["Content-Length"] = str(len(response.body))
    return response
