"""The HTTP side of the rooms server, against a real server on loopback."""

from __future__ import annotations

import re

import httpx
from pydantic import TypeAdapter
from rooms_harness import ServerThread, create_room, join_room
from shared_helpers import HTTP

from app.rooms.core.codes import CODE_ALPHABET, CODE_LENGTH
from app.rooms.core.frames import CreatedRoom, HttpErrorBody, JoinedRoom, PublicRoom
from app.rooms.server.pages import CSP


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = TypeAdapter(HttpErrorBody).validate_python(r.json())
    assert body["error"]["code"] == code, r.text
    return body["error"]["message"]


def test_create_room_gives_host_seat_0_and_an_unguessable_code(server: ServerThread) -> None:
    room = create_room(server.base)
    TypeAdapter(CreatedRoom).validate_python(room)
    assert room["seat"] == 0 and room["url"] == f"/r/{room['room']}"
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", room["room"])
    assert len(room["token"]) >= 22  # 128 bits, url-safe base64
    codes = {create_room(server.base)["room"] for _ in range(5)}
    assert len(codes) == 5
    info = HTTP.get(f"{server.base}/api/rooms/{room['room'].upper()}").json()  # any case
    TypeAdapter(PublicRoom).validate_python(info)
    assert info["phase"] == "lobby" and info["host"] == 0
    assert info["seats"][0]["name"] == "Ann" and info["seats"][0]["host"]
    assert info["joinable"] == [1, 2, 3]
    assert room["token"] not in str(info) and "token" not in str(info)


def test_join_first_free_or_chosen_seat_then_409(server: ServerThread) -> None:
    code = create_room(server.base)["room"]
    a = join_room(server.base, code, "Bo", seat=2)
    TypeAdapter(JoinedRoom).validate_python(a)
    assert a["seat"] == 2 and not a["takeover"]
    _error(HTTP.post(f"{server.base}/api/rooms/{code}/join", json={"name": "Cy", "seat": 2}),
           409, "seat_taken")
    assert join_room(server.base, code, "Cy")["seat"] == 1
    assert join_room(server.base, code, "Di")["seat"] == 3
    _error(HTTP.post(f"{server.base}/api/rooms/{code}/join", json={"name": "Ed"}),
           409, "no_free_seat")
    seats = HTTP.get(f"{server.base}/api/rooms/{code}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Cy", "Bo", "Di"]


def test_errors_have_the_protocol_shape(server: ServerThread) -> None:
    base = server.base
    _error(HTTP.get(f"{base}/api/rooms/zzzzzzzzzz"), 404, "room_not_found")
    _error(HTTP.get(f"{base}/api/rooms/not-a-code!"), 404, "room_not_found")
    _error(HTTP.post(f"{base}/api/rooms/zzzzzzzzzz/join", json={"name": "Bo"}),
           404, "room_not_found")
    r = HTTP.post(f"{base}/api/rooms", json={"name": "A", "rules": {"max_bid": 20}})
    msg = _error(r, 400, "bad_rules")
    assert "max_bid" in msg and r.json()["error"]["option"] == "max_bid"
    msg = _error(HTTP.post(f"{base}/api/rooms",
                           json={"name": "A", "rules": {"preset": "standard", "kitty": 3}}),
                 400, "bad_rules")
    assert msg.startswith("kitty")
    _error(HTTP.post(f"{base}/api/rooms", content=b"{not json"), 422, "bad_request")
    _error(HTTP.post(f"{base}/api/rooms", json={"nom": "A"}), 422, "bad_request")
    _error(HTTP.post(f"{base}/api/rooms", json={"name": 5}), 422, "bad_request")
    _error(HTTP.post(f"{base}/api/rooms", json={"name": "   "}), 400, "bad_name")
    _error(HTTP.post(f"{base}/api/rooms", json={"name": "x" * 33}), 400, "bad_name")
    _error(HTTP.post(f"{base}/api/rooms", json={"name": "a\u0007b"}), 400, "bad_name")
    code = create_room(base)["room"]
    _error(HTTP.post(f"{base}/api/rooms/{code}/join", json={"name": "B", "seat": "1"}),
           422, "bad_request")
    _error(HTTP.post(f"{base}/api/rooms/{code}/join", json={"name": "B", "seat": 7}),
           422, "bad_request")
    _error(HTTP.get(f"{base}/api/nothing"), 404, "not_found")
    info = HTTP.get(f"{base}/api/rooms/{code}").json()
    assert (info["version"], info["game"]) == (1, 0)  # nothing changed


def test_record_needs_a_seat_token_and_a_finished_match(server: ServerThread) -> None:
    room = create_room(server.base)
    url = f"{server.base}/api/rooms/{room['room']}/record"
    _error(HTTP.get(url), 401, "unauthorized")
    _error(HTTP.get(url, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    _error(HTTP.get(url, headers={"Authorization": f"Bearer {room['token']}"}),
           403, "match_not_over")


def test_practice_rooms_are_private(server: ServerThread) -> None:
    room = create_room(server.base, practice=True)
    _error(HTTP.post(f"{server.base}/api/rooms/{room['room']}/join", json={"name": "Bo"}),
           403, "private_room")
    info = HTTP.get(f"{server.base}/api/rooms/{room['room']}").json()
    assert info["practice"] and info["joinable"] == []


def test_rules_metadata_comes_from_the_engine(server: ServerThread) -> None:
    info = HTTP.get(f"{server.base}/api/rules").json()
    assert info["presets"] == ["standard", "guide", "norsk", "fullstokk"]
    assert info["options"]["players"] == {"type": "choice", "values": [3, 4, 5], "default": 4}
    assert info["options"]["target"]["min"] == 1
    four = {p: info["resolved"][p]["4"] for p in info["presets"]}
    assert (four["standard"]["min_bid"], four["standard"]["max_bid"]) == (7, 13)
    assert (four["guide"]["min_bid"], four["guide"]["max_bid"]) == (6, 12)
    assert (four["norsk"]["hand_size"], four["norsk"]["max_bid"]) == (13, 12)
    assert info["resolved"]["norsk"]["5"]["hand_size"] == 10
    assert info["best_bot"] in info["bot_levels"]


def test_pages_health_and_security_headers(server: ServerThread) -> None:
    base = server.base
    assert HTTP.get(f"{base}/healthz").json()["status"] == "ok"
    code = create_room(base)["room"]
    for path in ("/", f"/r/{code}", "/rules", "/r/zzzzzzzzzz"):
        r = HTTP.get(base + path)
        assert r.status_code == 200 and "<html" in r.text.lower(), path
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert "'unsafe-inline'" not in CSP
    r = HTTP.get(f"{base}/", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert 'lang="fr"' in r.text
    r = HTTP.get(f"{base}/?lang=nb", headers={"Accept-Language": "fr"})
    assert 'lang="nb"' in r.text
    r = HTTP.get(f"{base}/", headers={"Accept-Language": "no, en;q=0.1"})
    assert 'lang="nb"' in r.text
    r = HTTP.get(f"{base}/r/<script>alert(1)</script>")
    assert "<script>alert" not in r.text
