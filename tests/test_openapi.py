"""schemathesis against the HTTP API's OpenAPI schema (issue 9), on a real server on
loopback: generated requests, valid and not, to every endpoint of ``/api/openapi.json``;
no answer is a 5xx, every answer conforms to the schema (status, content type, body), and
every error has the ``{"error": {"code", "message"}}`` shape.  The number of examples is
bounded and the generation derandomized, so the file runs in seconds and the same way
each time."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.schemas import OpenApiSchema

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import ServerThread
from shared_helpers import HANG_GUARD, HTTP

from app.settings import Settings

EXAMPLES = 30  # per operation and phase
# A schema-valid body may still be refused with 400: a name of spaces, a rule set the
# engine finds unplayable, an unknown bot level (``bad_name``, ``bad_rules``, ``bad_level``:
# understood, but it does not work).  Any other refusal of valid data is a failure.
CONFIG = schemathesis.Config.from_dict({"checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "400", "401", "403", "404", "409", "429"]}}})


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server without per-client room limits, so generated rooms get past them."""
    data = tmp_path_factory.mktemp("openapi") / "data"
    with ServerThread(Settings(data_dir=data, rooms_per_minute=0, rooms_held=0)) as srv:
        yield srv


@pytest.fixture(scope="module")
def session() -> Iterator[requests.Session]:
    """One HTTP session for the ~1200 generated calls: without it each makes a session of
    its own, a new connection, and reads the environment's proxy settings (most of the
    test's own CPU time).  The server under test is on loopback: no proxy applies."""
    with requests.Session() as s:
        s.trust_env = False
        yield s


def integral_float(value: object) -> bool:
    """``1.0`` somewhere in ``value``: an integer to JSON Schema, not to the server, whose
    bodies are strict (``"seat": 1.0`` is refused like ``"seat": "1"``)."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(integral_float(v) for v in value.values())
    if isinstance(value, list):
        return any(integral_float(v) for v in value)
    return False


@pytest.fixture
def api_schema(api_server: ServerThread) -> OpenApiSchema:
    # requests go to where the schema came from: the test server
    schema = schemathesis.openapi.from_url(api_server.base + "/api/openapi.json",
                                           config=CONFIG)

    @schema.hook
    def filter_body(context: schemathesis.HookContext, body: Any) -> bool:
        return not integral_float(body)

    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


def assert_error_shape(response: Any) -> None:
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"], body
    assert isinstance(error["message"], str) and error["message"], body
    assert set(error) <= {"code", "message", "option"}, body


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_endpoint_conforms(case: schemathesis.Case[Any],
                                 session: requests.Session) -> None:
    # schemathesis's default of 10 s failed a busy machine's run (two suites at once):
    # the first POST /api/replay on a fresh server starts its replay worker process.
    response = case.call_and_validate(session=session, timeout=HANG_GUARD)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_error_shape(response)


def test_the_schema_describes_the_bodies_read_by_hand(api_server: ServerThread) -> None:
    """The routes read their bodies themselves (``api._body``): the schema still has them,
    strict (unknown keys refused), and the errors in our shape, not FastAPI's."""
    doc = HTTP.get(api_server.base + "/api/openapi.json").json()
    create = doc["paths"]["/api/rooms"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["name"] and body["additionalProperties"] is False
    join = doc["paths"]["/api/rooms/{code}/join"]["post"]
    assert "seat" in join["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert "HTTPValidationError" not in str(doc)
    for path in ("/api/rooms", "/api/rooms/{code}/join"):
        for status in ("413", "422"):
            content = doc["paths"][path]["post"]["responses"][status]["content"]
            assert content["application/json"]["schema"]["$ref"].endswith("/HttpErrorBody")
    # no documentation pages: the schema only
    assert HTTP.get(api_server.base + "/docs").status_code == 404
    assert HTTP.get(api_server.base + "/redoc").status_code == 404


def test_an_unsupported_method_gets_405_with_allow(api_server: ServerThread) -> None:
    r = HTTP.delete(api_server.base + "/api/rooms")
    assert r.status_code == 405
    assert r.headers["allow"] == "POST"
    assert_error_shape(r)


def test_workflows_along_the_links(api_schema: OpenApiSchema) -> None:
    """Stateful: the schema's links (create -> join, room info, record with the new
    seat's token) chain generated calls on real rooms, not only unknown codes."""

    class Workflow(api_schema.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response: Any, case: schemathesis.Case[Any],
                              **kwargs: Any) -> None:
            super().validate_response(response, case, **kwargs)
            assert response.status_code < 500, response.text
            if response.status_code >= 400:
                assert_error_shape(response)

    Workflow.run(settings=settings(max_examples=EXAMPLES, stateful_step_count=6,
                                   deadline=None, derandomize=True, database=None,
                                   suppress_health_check=list(HealthCheck)))
