"""The app factory: the rooms server as a FastAPI app (pages, HTTP API, WebSocket).

``create_app(settings)`` builds everything from the settings; ``amerikaner serve`` runs it
with uvicorn.  The database and the room registry live for the app's lifespan.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from app.clubs import api as clubs_api
from app.clubs import review_api as club_review_api
from app.clubs.ledger import keep_clubs
from app.rooms.core.errors import NO_DATABASE, RoomError, unavailable
from app.rooms.core.wire_enums import ErrorCode
from app.rooms.server import api, pages, replays
from app.rooms.server.connection import DirectSend
from app.rooms.server.registry import Registry
from app.rooms.server.replay_pool import ReplayPool
from app.rooms.server.search_pool import SearchPool
from app.rooms.server.ws import RETRY_AFTER, websocket_endpoint
from app.rooms.store import RoomStore, StoreError
from app.rooms.store.sqlite import SqliteStore
from app.runtime import memory
from app.runtime.websocket import direct_send
from app.settings import Settings
from app.web import logfilters, metrics, scrape
from app.web.assets import static_assets
from app.web.bodylimit import BodyLimit
from app.web.guards import Guards
from app.web.static_files import static_endpoint

WS_PREFIX = "/ws/"
log = logging.getLogger("amerikaner")
# The refusals' series, one per wire code, at 0 from the start (the metrics stand below
# the rooms and are told the codes here).
metrics.count_refusal_codes(code.value for code in ErrorCode)


class AmerikanerApp(FastAPI):
    """FastAPI with the rooms' WebSockets taken first: ``/ws/{code}`` goes straight to
    ``room_socket``, past the routing and every middleware (FastAPI's and ours), none of
    which a room's socket needs and whose coroutine frames it would otherwise keep alive
    for the whole connection (memory per socket; measured in benchmarks/load.py)."""

    room_socket: Callable[[WebSocket, str, DirectSend | None], Awaitable[None]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.room_socket is not None and scope["type"] == "websocket"
                and scope["path"].startswith(WS_PREFIX)):
            await self.room_socket(WebSocket(scope, receive, send),
                                   scope["path"][len(WS_PREFIX):], direct_send(send))
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None, store: RoomStore | None = None) -> FastAPI:
    """The app; ``store`` replaces the store of the settings (tests): PostgreSQL at
    ``settings.database_url`` if set, else SQLite in ``settings.data_dir``."""
    settings = settings or Settings.from_env()
    logfilters.install()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        room_store = store if store is not None else await open_store(settings)
        registry = Registry(settings, room_store)
        # the clubs' ledger: the store writes a club room's finished match with it, and
        # the par of its deals is due then
        keep_clubs(room_store, on_counted=registry.par.wake)
        app.state.registry = registry
        replay_pool = app.state.replay_pool = ReplayPool(settings.replay_workers,
                                                         settings.replay_queue)
        metrics.REPLAYS_OPEN.watch(replay_pool, lambda p: {(): float(p.stats()["pending"])})
        registry.start()
        watch_metrics(registry)
        log.info("rooms stored in %s", room_store.description)
        memory.tune_collector()  # start-up's objects out of the collector's sight
        try:
            yield
        finally:
            metrics.ROOMS.forget(registry)
            forget_search_pool(registry.thinkers.pool)
            metrics.REPLAYS_OPEN.forget(replay_pool)
            await asyncio.to_thread(replay_pool.close)  # lets a running replay finish
            await registry.close()
            await room_store.close()

    # the API's schema, for clients and the schemathesis test; no docs pages
    app = AmerikanerApp(title="Amerikaner", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.settings = settings
    guards = app.state.guards = Guards.from_settings(settings)  # per-client limits
    app.state.metrics_access = scrape.MetricsAccess.from_settings(settings)
    app.add_middleware(pages.SecurityHeaders)
    app.add_middleware(BodyLimit, trusted=guards.trusted,  # added last: outermost
                       larger={replays.UPLOAD_PATH: replays.UPLOAD_MAX})

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> JSONResponse:
        response = api.error_response(exc.code, exc.message, exc.status, exc.option,
                                      exc.params)
        if exc.retry_after is not None:  # a per-address limit, or the replays' queue
            response.headers["Retry-After"] = str(exc.retry_after)
            # refused before its body was read: rather than read and drop that body, the
            # connection ends (what a client sends next comes on a new one)
            response.headers["Connection"] = "close"
        elif exc.status == 503:  # another process serves the room, or the database fails
            response.headers["Retry-After"] = RETRY_AFTER
        return response

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        # a route that lets the store's failure through (the players' and clubs'):
        # the database does not answer now, try again (the rooms' routes say so too)
        log.warning("%s %s: the store failed: %s", request.method, request.url.path, exc)
        return await room_error(request, unavailable(NO_DATABASE))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return api.error_response(ErrorCode.BAD_REQUEST,
                                  "the request is not of the right shape", 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
            exc.status_code, ErrorCode.HTTP_ERROR)
        response = api.error_response(code, str(exc.detail), exc.status_code)
        response.headers.update(exc.headers or {})  # a 405's Allow
        if exc.status_code == 405:  # every route of the path (one route a method here)
            response.headers["Allow"] = ", ".join(_allowed(request))
        return response

    app.include_router(api.router)
    app.include_router(clubs_api.router)
    app.include_router(club_review_api.router)
    app.include_router(replays.router)
    app.include_router(scrape.router)
    app.include_router(pages.router, responses={422: api.json_error(422)})  # not FastAPI's

    async def ws(websocket: WebSocket, code: str, direct: DirectSend | None) -> None:
        await websocket_endpoint(websocket, code, app.state.registry, settings, guards,
                                 direct)

    app.room_socket = ws
    # read, hashed and gzipped once per process (app/web/assets.py)
    app.add_route("/static/{path:path}", static_endpoint(static_assets()), methods=["GET"],
                  include_in_schema=False)
    return app


def _allowed(request: Request) -> list[str]:
    """The methods the API takes at the request's path, from its OpenAPI schema
    (Starlette's 405 names only those of the first route matched, and a path such as
    /api/players/me has one route a method)."""
    table: list[tuple[re.Pattern[str], set[str]]] | None = getattr(
        request.app.state, "allowed_methods", None)
    if table is None:
        table = request.app.state.allowed_methods = [
            (re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"),
             {m.upper() for m in methods})
            for path, methods in request.app.openapi()["paths"].items()]
    path = request.url.path
    return sorted(set().union(*(m for rx, m in table if rx.match(path))))


def watch_metrics(registry: Registry) -> None:
    """The metrics read when scraped: rooms in memory, and the search pool's jobs waiting
    for a worker and its own counts (``SearchPool.stats``)."""
    metrics.ROOMS.watch(registry, lambda r: {(): float(len(r.rooms))})
    watch_search_pool(registry.thinkers.pool)


def watch_search_pool(pool: SearchPool) -> None:
    """The pool's figures in /metrics, read from its ``stats()`` when scraped (its queue
    waits are told by its ``on_wait``: thinking.py)."""
    def queue(p: SearchPool) -> dict[tuple[str, ...], float]:
        waiting = p.stats()["waiting"]
        return {("bot",): float(waiting["bot"]), ("hint",): float(waiting["hint"]),
                ("review",): float(waiting["review"])}

    metrics.SEARCH_QUEUE.watch(pool, queue)
    metrics.SEARCH_FALLBACKS.watch(pool, lambda p: {(): float(p.stats()["no_worker_in_time"])})
    metrics.SEARCH_WORKERS_REPLACED.watch(pool, lambda p: {(): float(p.stats()["replaced"])})
    metrics.SEARCH_REFUSED.watch(pool, lambda p: {(): float(p.stats()["refused"])})


def forget_search_pool(pool: SearchPool) -> None:
    """Undo ``watch_search_pool`` (the app ends: its pool counts no more)."""
    for metric in (metrics.SEARCH_QUEUE, metrics.SEARCH_FALLBACKS,
                   metrics.SEARCH_WORKERS_REPLACED, metrics.SEARCH_REFUSED):
        metric.forget(pool)


async def drain(app: FastAPI) -> None:
    """Hand the app's rooms over before it stops (``Registry.drain``; app/shutdown.py)."""
    registry: Registry | None = getattr(app.state, "registry", None)
    if registry is not None:
        await registry.drain()


async def open_store(settings: Settings) -> RoomStore:
    """The store of the settings (PostgreSQL's driver is imported only when used)."""
    if settings.database_url:
        from app.rooms.store.postgres import PostgresStore

        return await PostgresStore.connect(settings.database_url, settings.lease_seconds,
                                           settings.database_pool,
                                           records_kept=settings.records_kept)
    return SqliteStore(settings.data_dir, settings.records_kept)
