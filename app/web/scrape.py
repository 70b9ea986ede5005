"""``GET /metrics``: the metrics (app/web/metrics.py) for the operator's Prometheus, and
nobody else.

Who may read them, as operators expect of an app's metrics on its own port (GitLab's
monitoring allow-list, Grafana's basic auth):

- with ``AMERIKANER_METRICS_TOKEN`` set: only a request bearing it
  (``Authorization: Bearer TOKEN``, Prometheus' ``authorization`` or
  ``bearer_token_file``), from any address; else ``401 unauthorized``;
- without a token: only clients in ``AMERIKANER_METRICS_ALLOW`` (by default loopback and
  the private networks, where a Prometheus beside the server sits), by the address the
  per-client limits use (a trusted proxy's ``X-Forwarded-For`` believed, nobody else's).
  A request forwarded by a proxy that is not trusted is refused whatever its peer: behind
  an unlisted nginx on the same machine every client would otherwise seem to be
  127.0.0.1.  Refused: ``404 not_found``, as for any path that is not there, so that
  the internet's scanners learn nothing.

Each refusal logs one ``amerikaner.audit`` line (``refused kind=metrics ...``).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from enum import Enum

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.types import Scope

from app.settings import Settings

from . import audit, metrics
from .addresses import TrustedProxies, client_address, parse_ip

router = APIRouter()

FORWARDING_HEADERS = (b"x-forwarded-for", b"forwarded", b"x-real-ip")


class Verdict(Enum):
    ALLOWED = "allowed"
    NO_TOKEN = "no_token"            # a token is set and the request did not bear it
    NOT_ALLOWED = "not_allowed"      # no token set, and the client is not in the allow-list


@dataclass(frozen=True)
class MetricsAccess:
    """Who may read ``/metrics`` (see the module)."""

    token: str
    allow: TrustedProxies            # networks (the same matching as the trusted proxies)
    trusted: TrustedProxies          # the proxies whose X-Forwarded-For is believed

    @classmethod
    def from_settings(cls, settings: Settings) -> MetricsAccess:
        return cls(settings.metrics_token, TrustedProxies(settings.metrics_allow),
                   TrustedProxies(settings.trusted_proxies))

    def verdict(self, scope: Scope) -> Verdict:
        headers = scope.get("headers", ())
        if self.token:
            given = b""
            for name, value in headers:
                if name == b"authorization":
                    given = value
            scheme, _, credentials = given.partition(b" ")  # compared as bytes, as sent
            ok = scheme.lower() == b"bearer" and hmac.compare_digest(
                credentials.strip(), self.token.encode())
            return Verdict.ALLOWED if ok else Verdict.NO_TOKEN
        peer = scope.get("client")
        if peer is None:
            return Verdict.NOT_ALLOWED
        forwarded = any(name in FORWARDING_HEADERS for name, _ in headers)
        if forwarded and peer[0] not in self.trusted:
            return Verdict.NOT_ALLOWED  # an unknown proxy's client could be anyone
        address = client_address(scope, self.trusted)
        if parse_ip(address) is not None and address in self.allow:
            return Verdict.ALLOWED
        return Verdict.NOT_ALLOWED


@router.get("/metrics", include_in_schema=False)  # the operator's, not the API's
async def metrics_endpoint(request: Request) -> Response:
    access: MetricsAccess = request.app.state.metrics_access
    verdict = access.verdict(request.scope)
    if verdict is Verdict.ALLOWED:
        body, content_type = metrics.exposition(request.headers.get("accept"))
        return Response(body, media_type=content_type,
                        headers={"Cache-Control": "no-store"})
    audit.refused("metrics", address=client_address(request.scope, access.trusted),
                  reason=verdict.value)
    if verdict is Verdict.NO_TOKEN:
        metrics.refused("unauthorized", "http")
        return JSONResponse(
            {"error": {"code": "unauthorized", "message": "the metrics need a token"}},
            status_code=401, headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    raise HTTPException(404)  # answered as every unknown path is (app/main.py)
