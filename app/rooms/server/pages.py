"""The browser pages (landing, room, rules, replay) and the security headers every answer gets.

Pages are Jinja templates from ``app/templates``; until a template exists a minimal page
stands in.  The language is ``?lang=`` or the best of ``Accept-Language`` among the ones
the client is translated into.
"""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from app.rooms.core.codes import normalize_code
from app.web.assets import static_assets
from app.web.static_files import compress_page

LANGS = ("en", "nb", "fr")
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
# The pages' import map (app/web/assets.py) is their one inline script: allowed by its hash.
ASSETS = static_assets()
CSP = (f"default-src 'self'; script-src 'self' '{ASSETS.importmap_hash}'; style-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter()
templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
# what base.html needs to name the static files by their versioned addresses
templates.env.globals.update(asset=ASSETS.url, bundle=ASSETS.bundle_url,
                             importmap=ASSETS.importmap, importmap_hash=ASSETS.importmap_hash)


class SecurityHeaders(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response


def negotiate_lang(request: Request) -> str:
    asked = request.query_params.get("lang", "").lower()
    if asked in LANGS:
        return asked
    best, best_q = "en", -1.0
    for part in request.headers.get("accept-language", "").split(","):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = tag.split("-")[0]
        lang = "nb" if base in ("nb", "no", "nn") else base
        if lang in LANGS and q > best_q:
            best, best_q = lang, q
    return best


def _page(request: Request, name: str, title: str, **context: object) -> HTMLResponse:
    lang = negotiate_lang(request)
    try:
        page = templates.TemplateResponse(request, name, {"lang": lang, **context})
        return compress_page(request, page)
    except TemplateNotFound:
        title = html.escape(title)
        return HTMLResponse(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                            f"<title>{title}</title></head><body><h1>{title}</h1></body></html>")


@router.get("/", response_class=HTMLResponse)
async def index(request: Request) -> HTMLResponse:
    return _page(request, "index.html", "Amerikaner")


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(code: str, request: Request) -> HTMLResponse:
    room_code = normalize_code(code) or code[:32]
    return _page(request, "room.html", f"Amerikaner {room_code}", room_code=room_code)


@router.get("/c/{club}", response_class=HTMLResponse)
async def club_page(club: str, request: Request) -> HTMLResponse:
    """A club's page: the same page for every club and every visitor (it holds no club
    data); clubpage.js asks ``GET /api/clubs/{club}`` with the player's key."""
    return _page(request, "club.html", "Amerikaner club")


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    return _page(request, "rules.html", "Amerikaner rules")


@router.get("/replay", response_class=HTMLResponse)
async def replay_page(request: Request) -> HTMLResponse:
    """Replay a deal of a game record file (dropped on the page or picked)."""
    return _page(request, "replay.html", "Amerikaner replay")
