"""Helpers the event tests share: an app on the tiny corpus with its own events database, the
head judge on the laptop, judges on phones (test clients from other addresses)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient

from judgekit import create_app

from .conftest import MINI

LAPTOP = "http://localhost"
VENUE = "http://192.168.1.20:8000"  # the laptop's address on the venue network
CITE = "entry:demo-rulebook/2/beaming"


def event_app(data_dir, **config) -> Flask:
    """The app on the tiny corpus, its events database in data_dir."""
    return create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": str(MINI),
            "DATA_DIR": str(data_dir),
            "SEARCH_CACHE_DIR": "",
            **config,
        }
    )


def csrf_of(html: str) -> str:
    """The CSRF token a page's form carries."""
    return re.search(r'name="csrf" value="([^"]*)"', html).group(1)


@dataclass
class Phone:
    """A judge's phone on the venue network: a client from its own address."""

    client: FlaskClient
    address: str

    def get(self, path: str, **kw):
        """GET as this phone."""
        return self.client.get(
            path, base_url=VENUE, environ_base={"REMOTE_ADDR": self.address}, **kw
        )

    def post(self, path: str, origin: str | None = VENUE, **kw):
        """POST as this phone, from the server's own pages unless origin says otherwise."""
        headers = kw.pop("headers", {})
        if origin is not None:
            headers = {"Origin": origin, **headers}
        return self.client.post(
            path, base_url=VENUE, environ_base={"REMOTE_ADDR": self.address}, headers=headers, **kw
        )

    def join(self, code: str, name: str):
        """Join with a code and a name, from the join form (with its CSRF token)."""
        token = csrf_of(self.get("/event").get_data(as_text=True))
        return self.post("/event/join", data={"code": code, "name": name, "csrf": token})

    def csrf(self) -> str:
        """This phone's CSRF token (from the form recording a ruling)."""
        return csrf_of(self.get("/event/rulings/new").get_data(as_text=True))

    def record(self, **fields):
        """Record a ruling from the form; returns the answer."""
        data = {
            "round": "2",
            "table": "7",
            "question": "Q?",
            "ruling": "R.",
            "cite": CITE,
            **fields,
        }
        if "csrf" not in data:
            data["csrf"] = self.csrf()
        return self.post("/event/rulings", data=data)


def start_event(
    app: Flask, name: str = "Regional, 5 Dec", head: str = "Ann"
) -> tuple[FlaskClient, str, str]:
    """Start an event from the laptop's browser: that browser (joined as head judge) and the
    judge and head judge codes its desk shows."""
    laptop = app.test_client()
    token = csrf_of(laptop.get("/event/new", base_url=LAPTOP).get_data(as_text=True))
    answer = laptop.post(
        "/event/new",
        data={"event": name, "name": head, "csrf": token},
        base_url=LAPTOP,
        headers={"Origin": LAPTOP},
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    judge_code = re.search(r"data-judge-code>([^<]+)<", desk).group(1)
    head_code = re.search(r"data-head-code>([^<]+)<", desk).group(1)
    return laptop, judge_code, head_code


def joined(app: Flask, name: str = "Sam", address: str = "192.168.1.31") -> Phone:
    """A floor judge's phone joined to a new event (started from the laptop)."""
    _laptop, judge_code, _ = start_event(app)
    phone = Phone(app.test_client(), address)
    assert phone.join(judge_code, name).status_code == 303
    return phone


def laptop_post(laptop: FlaskClient, path: str, data: dict, page: str = "/event/desk"):
    """A form post from the laptop's browser, with the CSRF token of ``page``'s form."""
    token = csrf_of(laptop.get(page, base_url=LAPTOP).get_data(as_text=True))
    return laptop.post(
        path, data={**data, "csrf": token}, base_url=LAPTOP, headers={"Origin": LAPTOP}
    )
