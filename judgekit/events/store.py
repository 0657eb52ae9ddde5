"""The events database: one SQLite file per installation, in WAL mode, foreign keys on.

Every process of ``judgekit serve`` opens its own connections (never one made before a fork), one
per operation, so workers and their threads write at once through SQLite's own locking. Every
write is one ``BEGIN IMMEDIATE`` transaction, committed with ``synchronous=FULL`` before the judge
is told it is kept: a killed server loses nothing it confirmed. Rulings are never updated: each
change is a new revision row.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from judgekit.events.model import Citation, Event, Judge, Revision, Ruling, SignedOut

FILE_NAME = "events.sqlite"
BUSY_MS = 15000  # how long a write waits for another process's transaction
# A judge code: 10 letters and digits no one misreads (no 0/O, 1/I/L): 31^10, about 8.2e14
# (2^49.5) codes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
# Wrong codes are counted within GUESS_WINDOW seconds. An address gets GUESSES_PER_ADDRESS. Past
# GUESSES_IN_ALL from everyone, the alarm: the head judge's desk shows it, and an address with a
# wrong code is refused at once, while one with none may still try (a judge arriving must not be
# locked out by a flood). Then each address guesses once a window, so guesses in all are bounded
# by GUESSES_IN_ALL plus the addresses (254 on a /24 Wi-Fi); and were an attacker to hold
# unlimited addresses (IPv6), each guess is a synced write, a few hundred a second at most:
# 16 hours of 500 a second is 2.9e7 guesses, a chance of 2.9e7 / 8.2e14 = 1 in 28 million of
# finding the code, which the head judge can change at once from the desk.
GUESS_WINDOW = 15 * 60
GUESSES_PER_ADDRESS = 10
GUESSES_IN_ALL = 200

# Each migration takes the schema from its index to the next version; applied at start-up, in
# order, in one transaction each. Only ever append.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at REAL NOT NULL,
        ends_at REAL NOT NULL,
        judge_code TEXT NOT NULL,
        head_code TEXT NOT NULL,
        precedent INTEGER NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE judges (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('judge', 'head')),
        joined_at REAL NOT NULL,
        removed_at REAL,
        UNIQUE (event_id, name)
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        judge_id INTEGER NOT NULL REFERENCES judges(id),
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL
    );
    CREATE TABLE rulings (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,
        judge TEXT NOT NULL,
        draft TEXT,
        UNIQUE (event_id, number),
        UNIQUE (event_id, draft)
    );
    CREATE TABLE revisions (
        id INTEGER PRIMARY KEY,
        ruling_id INTEGER NOT NULL REFERENCES rulings(id),
        number INTEGER NOT NULL,
        at REAL NOT NULL,
        judge TEXT NOT NULL,
        change TEXT NOT NULL,
        round TEXT NOT NULL,
        table_name TEXT NOT NULL,
        question TEXT NOT NULL,
        ruling TEXT NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        note TEXT NOT NULL,
        published INTEGER NOT NULL,
        UNIQUE (ruling_id, number)
    );
    CREATE TABLE citations (
        ruling_id INTEGER NOT NULL REFERENCES rulings(id),
        position INTEGER NOT NULL,
        kind TEXT NOT NULL,
        document TEXT NOT NULL,
        version TEXT NOT NULL,
        entry TEXT NOT NULL,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (ruling_id, position)
    );
    CREATE INDEX citations_target ON citations (document, entry);
    CREATE TABLE guesses (address TEXT NOT NULL, at REAL NOT NULL);
    CREATE INDEX guesses_at ON guesses (at);
    """,
    # 2: a judge let back in by the head judge: a one-time code for that judge's name only.
    """
    CREATE TABLE rejoins (
        judge_id INTEGER PRIMARY KEY REFERENCES judges(id),
        code_hash TEXT NOT NULL,
        until REAL NOT NULL
    );
    """,
    # 3: the sessions a judge's joining again ended (the old device is told why, not just refused).
    """
    CREATE TABLE ended_sessions (
        token_hash TEXT PRIMARY KEY,
        judge_id INTEGER NOT NULL REFERENCES judges(id),
        ended_at REAL NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
REJOIN_SECONDS = 15 * 60  # a code to join again is good for this long, and once


class StoreError(Exception):
    """A request the store refuses; the message is for the judge (and says why)."""


class TooManyGuesses(StoreError):
    """Too many wrong codes lately, from this address or in all."""


class SessionEnded(Exception):
    """The session a write was sent with ended before the write's transaction began (its judge
    joined again elsewhere, or was removed): nothing was written. Not a StoreError, so that no
    view answers it as a missing ruling or a bad name."""


def default_data_dir() -> Path:
    """The user's data folder for judgekit (XDG on Linux, Application Support, AppData)."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "judgekit"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "judgekit"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "judgekit"


def new_code() -> str:
    """A fresh judge code, shown as two groups of five ("K7QMX-3PAHW")."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{code[:5]}-{code[5:]}"


def _normal_code(code: str) -> str:
    return "".join(c for c in code.upper() if c.isalnum())


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _present_judge(conn: sqlite3.Connection, event_id: int, name: str) -> sqlite3.Row:
    """The judge of this name in the event, not removed; StoreError if none."""
    row = conn.execute(
        "SELECT * FROM judges WHERE event_id = ? AND name = ? AND removed_at IS NULL",
        (event_id, name),
    ).fetchone()
    if row is None:
        raise StoreError(f"no judge named {name!r} in this event")
    return row


def _rejoin_code(
    conn: sqlite3.Connection, event_id: int, name: str, given: str, now: float
) -> bool:
    """Whether ``given`` is the code the head judge gave this name to join again, still good."""
    row = conn.execute(
        "SELECT rejoins.code_hash FROM rejoins JOIN judges ON judges.id = rejoins.judge_id"
        " WHERE judges.event_id = ? AND judges.name = ? AND judges.removed_at IS NULL"
        " AND rejoins.until > ?",
        (event_id, name, now),
    ).fetchone()
    return row is not None and hmac.compare_digest(_hash(given), row["code_hash"])


def _end_sessions(conn: sqlite3.Connection, judge_id: int, now: float) -> None:
    """End a judge's sessions because they joined again elsewhere, remembering each (signed_out)."""
    conn.execute(
        "INSERT OR REPLACE INTO ended_sessions (token_hash, judge_id, ended_at, expires_at)"
        " SELECT token_hash, judge_id, ?, expires_at FROM sessions WHERE judge_id = ?",
        (now, judge_id),
    )
    conn.execute("DELETE FROM sessions WHERE judge_id = ?", (judge_id,))


def _prune_sessions(conn: sqlite3.Connection, now: float) -> None:
    """Forget sessions, and ended sessions, past their expiry (the event's end): no device is
    signed in by them, nor told why they ended, any more, so the tables stay bounded."""
    conn.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,))
    conn.execute("DELETE FROM ended_sessions WHERE expires_at <= ?", (now,))


def _live_session(
    conn: sqlite3.Connection, token: str | None, by: Judge | None, now: float | None = None
) -> None:
    """Refuse a write (SessionEnded) whose session is no longer the judge ``by``'s live session,
    read inside the write's own transaction: a rejoin or a removal committed first wins."""
    if token is None or by is None:  # the laptop's own writes (the CLI, the desk unsigned)
        return
    now = time.time() if now is None else now
    row = conn.execute(
        "SELECT 1 FROM sessions JOIN judges ON judges.id = sessions.judge_id"
        " JOIN events ON events.id = judges.event_id"
        " WHERE token_hash = ? AND judges.id = ? AND expires_at > ? AND ends_at > ?"
        " AND removed_at IS NULL",
        (_hash(token), by.id, now, now),
    ).fetchone()
    if row is None:
        raise SessionEnded("this device's session ended before the write: nothing was written")


class Store:
    """The events database at ``path``; opens a connection for each operation (fork-safe)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    # -- connections ------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for reads (WAL: they see the last commit and never wait for writers)."""
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is kept, or none of it."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def _row(self, sql: str, row_id: int, what: str) -> sqlite3.Row:
        """The one row sql finds for row_id; StoreError naming what is missing."""
        with self.reading() as conn:
            row = conn.execute(sql, (row_id,)).fetchone()
        if row is None:
            raise StoreError(f"no {what} {row_id}")
        return row

    def migrate(self) -> int:
        """Create the database, or bring its schema up to date; returns the schema version.

        Refuses a database written by a newer judgekit (it would not know its tables).
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = self._connect()
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see it
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} has schema version {version}; this judgekit knows up to "
                        f"{SCHEMA_VERSION}: update judgekit"
                    )
                for number in range(version, SCHEMA_VERSION):
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {number + 1}")
                conn.execute(
                    "INSERT OR IGNORE INTO settings (name, value) VALUES ('secret', ?)",
                    (secrets.token_hex(32),),
                )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return SCHEMA_VERSION
        finally:
            conn.close()

    def secret(self) -> bytes:
        """The installation's secret: signs session cookies and CSRF tokens across restarts."""
        with self.reading() as conn:
            row = conn.execute("SELECT value FROM settings WHERE name = 'secret'").fetchone()
        return bytes.fromhex(row["value"])

    def integrity(self) -> str:
        """SQLite's own check of the file ("ok" when sound)."""
        with self.reading() as conn:
            return conn.execute("PRAGMA integrity_check").fetchone()[0]

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the database at target, taken while others write (SQLite's
        online backup)."""
        target = Path(target)
        if target.exists():
            raise StoreError(f"{target} exists: name a new file")
        target.parent.mkdir(parents=True, exist_ok=True)
        with self.reading() as conn:
            copy = sqlite3.connect(target)
            try:
                conn.backup(copy)
            finally:
                copy.close()

    # -- events -----------------------------------------------------------------------------
    def create_event(
        self, name: str, ends_at: float, now: float | None = None
    ) -> tuple[Event, str, str]:
        """A new event: it, its judge code and its head judge's code."""
        now = time.time() if now is None else now
        judge_code, head_code = new_code(), new_code()
        with self.writing() as conn:
            cursor = conn.execute(
                "INSERT INTO events (name, created_at, ends_at, judge_code, head_code)"
                " VALUES (?, ?, ?, ?, ?)",
                (name, now, ends_at, judge_code, head_code),
            )
            event_id = cursor.lastrowid
        return self.event(event_id), judge_code, head_code

    def event(self, event_id: int) -> Event:
        """The event with this id; StoreError when there is none."""
        return _event(self._row("SELECT * FROM events WHERE id = ?", event_id, "event"))

    def events(self) -> list[Event]:
        """Every event, newest first."""
        with self.reading() as conn:
            rows = conn.execute("SELECT * FROM events ORDER BY id DESC").fetchall()
        return [_event(row) for row in rows]

    def current_event(self, now: float | None = None) -> Event | None:
        """The newest event of this installation not yet over (imported precedent aside)."""
        now = time.time() if now is None else now
        with self.reading() as conn:
            row = conn.execute(
                "SELECT * FROM events WHERE precedent = 0 AND ends_at > ? ORDER BY id DESC LIMIT 1",
                (now,),
            ).fetchone()
        return _event(row) if row else None

    def codes(self, event_id: int) -> tuple[str, str]:
        """The event's judge code and head judge code (shown on the laptop and the CLI only)."""
        row = self._row("SELECT judge_code, head_code FROM events WHERE id = ?", event_id, "event")
        return row["judge_code"], row["head_code"]

    def change_code(
        self,
        event_id: int,
        which: str = "judge",
        by: Judge | None = None,
        session: str | None = None,
    ) -> str:
        """Give the event a new judge (or head) code; the old one joins no one from now on.
        Judges already joined stay. ``by`` and ``session``, the head judge's, as for
        ``record``."""
        column = {"judge": "judge_code", "head": "head_code"}[which]
        code = new_code()
        with self.writing() as conn:
            _live_session(conn, session, by)
            done = conn.execute(
                f"UPDATE events SET {column} = ? WHERE id = ? AND precedent = 0", (code, event_id)
            )
            if done.rowcount != 1:
                raise StoreError(f"no event {event_id} to change the code of")
        return code

    # -- judges and sessions ----------------------------------------------------------------
    def join(
        self,
        event_id: int,
        code: str,
        name: str,
        address: str,
        now: float | None = None,
        limited: bool = True,
        sign_out_others: bool = False,
    ) -> tuple[Judge, str]:
        """A judge joining with a code and a name: the judge and a new session token.

        A judge joining again under their own name: with the one-time code of "Let back in"
        (a lost phone), their other sessions end; the head judge with the head judge code keeps
        theirs (a laptop and a phone) unless ``sign_out_others`` (their lost phone).

        Wrong codes are counted per address and in all: past its address's limit, or past the
        limit in all from an address with a wrong code, a guess is refused (TooManyGuesses)
        without looking at the code, and nothing more is written.
        ``limited=False`` (the laptop itself) is never refused so: a flood from the network
        cannot lock the head judge out.
        """
        now = time.time() if now is None else now
        given = _normal_code(code)
        if limited:
            with self.reading() as conn:  # a flood of guesses is refused without writing
                _check_guesses(conn, address, now)
        with self.writing() as conn:
            conn.execute("DELETE FROM guesses WHERE at < ?", (now - GUESS_WINDOW,))
            if limited:
                _check_guesses(conn, address, now)  # again, in the transaction counting this one
            row = conn.execute(
                "SELECT * FROM events WHERE id = ? AND precedent = 0", (event_id,)
            ).fetchone()
            role = None
            if row is not None and row["ends_at"] > now:
                if hmac.compare_digest(given, _normal_code(row["head_code"])):
                    role = "head"
                elif hmac.compare_digest(given, _normal_code(row["judge_code"])):
                    role = "judge"
                elif _rejoin_code(conn, event_id, name, given, now):
                    role = "again"  # the code the head judge gave this name to join again
            if role is None:
                conn.execute("INSERT INTO guesses (address, at) VALUES (?, ?)", (address, now))
        # The failed guess is committed before it is refused (so it counts).
        if role is None:
            raise StoreError("wrong code, or the event is over: ask the head judge for the code")
        with self.writing() as conn:
            judge = conn.execute(
                "SELECT * FROM judges WHERE event_id = ? AND name = ?", (event_id, name)
            ).fetchone()
            if judge is not None and judge["removed_at"] is not None:
                raise StoreError(f"{name} was removed from this event by the head judge")
            if role == "again":
                # Let back in by the head judge: the same judge, once (the code is spent here,
                # in the transaction adding the session, so two devices cannot both use it).
                spent = conn.execute(
                    "DELETE FROM rejoins WHERE judge_id = ?", (judge["id"] if judge else -1,)
                )
                if spent.rowcount != 1:
                    raise StoreError("this code to join again was used already")
            elif judge is not None and not (role == "head" and judge["role"] == "head"):
                # A name is a judge's: whoever has a code must not become another judge (the
                # head judge above all) by typing their name.
                raise StoreError(
                    f"a judge named {name} has already joined this event: choose another name,"
                    f" or, if you are {name} on a new device, ask the head judge for a code to"
                    " join again (the desk's “Let back in”)"
                )
            _prune_sessions(conn, now)
            if judge is not None:
                # The same judge again (let back in, or the head judge with the head judge code,
                # which already gives every right the name holds): their rulings, their name on
                # the desk. Let back in replaces a lost device, so their other sessions end, in
                # this transaction (a kill leaves the old session or the new, never both); the
                # head judge keeps a laptop and a phone signed in together unless they ask.
                judge_id = judge["id"]
                if role == "again" or sign_out_others:
                    _end_sessions(conn, judge_id, now)
            else:
                judge_id = conn.execute(
                    "INSERT INTO judges (event_id, name, role, joined_at) VALUES (?, ?, ?, ?)",
                    (event_id, name, role, now),
                ).lastrowid
            token = secrets.token_urlsafe(32)
            conn.execute(
                "INSERT INTO sessions (token_hash, judge_id, created_at, expires_at)"
                " VALUES (?, ?, ?, ?)",
                (_hash(token), judge_id, now, row["ends_at"]),
            )
        return self.judge(judge_id), token

    def let_back_in(
        self,
        event_id: int,
        name: str,
        now: float | None = None,
        by: Judge | None = None,
        session: str | None = None,
    ) -> str:
        """A one-time code for the judge of this name to join again (a new device, a lost
        session): good for ``REJOIN_SECONDS``, for that name only; a newer one replaces it.
        Joining with it ends the judge's other sessions. ``by`` and ``session`` as for
        ``change_code``."""
        now = time.time() if now is None else now
        code = new_code()
        with self.writing() as conn:
            _live_session(conn, session, by, now)
            row = _present_judge(conn, event_id, name)
            conn.execute(
                "INSERT OR REPLACE INTO rejoins (judge_id, code_hash, until) VALUES (?, ?, ?)",
                (row["id"], _hash(_normal_code(code)), now + REJOIN_SECONDS),
            )
        return code

    def judge(self, judge_id: int) -> Judge:
        """The judge with this id."""
        return _judge(self._row("SELECT * FROM judges WHERE id = ?", judge_id, "judge"))

    def judges(self, event_id: int) -> list[Judge]:
        """The event's judges, in the order they joined."""
        with self.reading() as conn:
            rows = conn.execute(
                "SELECT * FROM judges WHERE event_id = ? ORDER BY id", (event_id,)
            ).fetchall()
        return [_judge(row) for row in rows]

    def session_judge(self, token: str, now: float | None = None) -> Judge | None:
        """The judge a session token belongs to, while it lasts and the judge is not removed."""
        now = time.time() if now is None else now
        with self.reading() as conn:
            row = conn.execute(
                "SELECT judges.* FROM sessions JOIN judges ON judges.id = sessions.judge_id"
                " JOIN events ON events.id = judges.event_id"
                " WHERE token_hash = ? AND expires_at > ? AND ends_at > ? AND removed_at IS NULL",
                (_hash(token), now, now),
            ).fetchone()
        return _judge(row) if row else None

    def signed_out(self, token: str, now: float | None = None) -> SignedOut | None:
        """Why a session that is over ended, when its judge's joining again ended it (and the
        event lasts); else None."""
        now = time.time() if now is None else now
        with self.reading() as conn:
            row = conn.execute(
                "SELECT judges.name, judges.role, ended_at FROM ended_sessions"
                " JOIN judges ON judges.id = ended_sessions.judge_id"
                " WHERE token_hash = ? AND expires_at > ? AND removed_at IS NULL",
                (_hash(token), now),
            ).fetchone()
        return SignedOut(row["name"], row["role"] == "head", row["ended_at"]) if row else None

    def end_session(self, token: str) -> None:
        """Sign a session out."""
        with self.writing() as conn:
            conn.execute("DELETE FROM sessions WHERE token_hash = ?", (_hash(token),))

    def remove_judge(
        self,
        event_id: int,
        name: str,
        now: float | None = None,
        by: Judge | None = None,
        session: str | None = None,
    ) -> Judge:
        """Remove a judge: their sessions end and their name cannot join again. Their rulings
        stay. ``by``, the head judge removing, cannot remove themselves (StoreError); their
        ``session`` as for ``record``."""
        now = time.time() if now is None else now
        with self.writing() as conn:
            _live_session(conn, session, by, now)
            row = _present_judge(conn, event_id, name)
            if by is not None and by.id == row["id"]:
                # Their own session would end and their name could not join again: the event
                # would be left without the head judge removing.
                raise StoreError(
                    f"you cannot remove yourself ({name}): the event would lose its head judge"
                )
            conn.execute("UPDATE judges SET removed_at = ? WHERE id = ?", (now, row["id"]))
            conn.execute("DELETE FROM sessions WHERE judge_id = ?", (row["id"],))
        return self.judge(row["id"])

    def guesses(self, now: float | None = None) -> tuple[int, int]:
        """Wrong codes within the window, and the addresses they came from (the desk's alarm)."""
        now = time.time() if now is None else now
        with self.reading() as conn:
            row = conn.execute(
                "SELECT COUNT(*), COUNT(DISTINCT address) FROM guesses WHERE at >= ?",
                (now - GUESS_WINDOW,),
            ).fetchone()
        return row[0], row[1]

    def clear_guesses(self, by: Judge | None = None, session: str | None = None) -> None:
        """Forget the wrong codes (the head judge, once the code is changed or the flood over);
        ``by`` and ``session`` as for ``change_code``."""
        with self.writing() as conn:
            _live_session(conn, session, by)
            conn.execute("DELETE FROM guesses")

    # -- rulings ----------------------------------------------------------------------------
    def record(
        self,
        event_id: int,
        judge: Judge,
        fields: dict[str, str],
        citations: list[Citation],
        now: float | None = None,
        draft: str | None = None,
        session: str | None = None,
    ) -> Ruling:
        """Record a new ruling (its first revision) with its pinned citations.

        ``draft`` names the phone's draft: sent again (its answer lost with the Wi-Fi), it gives
        the ruling already recorded, not a second one. ``session``, the token it was sent with,
        must still be the judge's when the write begins (SessionEnded, nothing written).
        """
        now = time.time() if now is None else now
        with self.writing() as conn:
            _live_session(conn, session, judge, now)
            done = (
                conn.execute(
                    "SELECT number FROM rulings WHERE event_id = ? AND draft = ?", (event_id, draft)
                ).fetchone()
                if draft
                else None
            )
            if done is not None:
                number = done["number"]
            else:
                number = _insert_ruling(conn, event_id, judge.name, draft, citations)
                _add_revision(
                    conn, _id_of(conn, event_id, number), 1, now, judge.name, "recorded", fields
                )
        return self.ruling(event_id, number)

    def revise(
        self,
        event_id: int,
        number: int,
        judge: Judge,
        change: str,
        note: str = "",
        now: float | None = None,
        session: str | None = None,
    ) -> Ruling:
        """A head judge's change as a new revision: upheld or overturned on appeal (with a
        note), published or unpublished. Earlier revisions stay as they were. ``session`` as
        for ``record``."""
        now = time.time() if now is None else now
        with self.writing() as conn:
            _live_session(conn, session, judge, now)
            ruling = conn.execute(
                "SELECT id FROM rulings WHERE event_id = ? AND number = ?", (event_id, number)
            ).fetchone()
            if ruling is None:
                raise StoreError(f"no ruling {number} in this event")
            last = conn.execute(
                "SELECT * FROM revisions WHERE ruling_id = ? ORDER BY number DESC LIMIT 1",
                (ruling["id"],),
            ).fetchone()
            fields = {
                "round": last["round"],
                "table": last["table_name"],
                "question": last["question"],
                "ruling": last["ruling"],
                "players": last["players"],
                "status": last["status"],
                "note": last["note"],
                "published": last["published"],
            }
            if change in ("upheld", "overturned"):
                fields["status"], fields["note"] = change, note
            elif change in ("published", "unpublished"):
                fields["published"] = change == "published"
            else:
                raise StoreError(f"unknown change {change!r}")
            _add_revision(conn, ruling["id"], last["number"] + 1, now, judge.name, change, fields)
        return self.ruling(event_id, number)

    def ruling(self, event_id: int, number: int) -> Ruling:
        """One ruling with its history; StoreError when there is none."""
        found = self.rulings(event_id, number)
        if not found:
            raise StoreError(f"no ruling {number} in this event")
        return found[0]

    def published_ruling(self, event_id: int, number: int) -> Ruling:
        """One published ruling as it is now; StoreError, in the same words, when there is none
        or it is not published (what judges have not published is never said to exist)."""
        found = self.rulings(event_id, number)
        if not found or not found[0].now.published:
            raise StoreError(f"no published ruling {number} in this event")
        return found[0]

    def rulings(self, event_id: int, number: int | None = None) -> list[Ruling]:
        """The event's rulings (or one), newest first, each with its citations and revisions."""
        where, args = "event_id = ?", [event_id]
        if number is not None:
            where, args = where + " AND number = ?", [event_id, number]
        with self.reading() as conn:  # one snapshot: WAL reads see a single commit
            conn.execute("BEGIN")
            heads = conn.execute(
                f"SELECT * FROM rulings WHERE {where} ORDER BY number DESC", args
            ).fetchall()
            ids = [row["id"] for row in heads]
            cites: dict[int, list[Citation]] = {i: [] for i in ids}
            revs: dict[int, list[Revision]] = {i: [] for i in ids}
            scope = f"ruling_id IN (SELECT id FROM rulings WHERE {where})"
            for row in conn.execute(
                f"SELECT * FROM citations WHERE {scope} ORDER BY ruling_id, position", args
            ):
                cites[row["ruling_id"]].append(_citation(row))
            for row in conn.execute(
                f"SELECT * FROM revisions WHERE {scope} ORDER BY ruling_id, number", args
            ):
                revs[row["ruling_id"]].append(_revision(row))
            conn.execute("COMMIT")
        return [
            Ruling(
                row["id"],
                row["event_id"],
                row["number"],
                row["judge"],
                tuple(cites[row["id"]]),
                tuple(revs[row["id"]]),
            )
            for row in heads
        ]

    def import_event(self, data: dict, source: str) -> Event:
        """An earlier event's export (export.event_json) kept read-only as precedent."""
        from judgekit.events.exchange import imported

        event_name, ends_at, rulings = imported(data)
        with self.writing() as conn:
            event_id = conn.execute(
                "INSERT INTO events (name, created_at, ends_at, judge_code, head_code, precedent,"
                " source) VALUES (?, ?, ?, '', '', 1, ?)",
                (event_name, time.time(), ends_at, source),
            ).lastrowid
            for judge, citations, revisions in rulings:
                number = _insert_ruling(conn, event_id, judge, None, citations)
                ruling_id = _id_of(conn, event_id, number)
                for rev in revisions:
                    _add_revision(
                        conn,
                        ruling_id,
                        rev.number,
                        rev.at,
                        rev.judge,
                        rev.change,
                        {
                            "round": rev.round,
                            "table": rev.table,
                            "question": rev.question,
                            "ruling": rev.ruling,
                            "players": rev.players,
                            "status": rev.status,
                            "note": rev.note,
                            "published": rev.published,
                        },
                    )
        return self.event(event_id)


def _insert_ruling(
    conn: sqlite3.Connection, event_id: int, judge: str, draft: str | None, citations: list
) -> int:
    """A ruling's row and its citations; its number, the event's next."""
    number = conn.execute(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM rulings WHERE event_id = ?", (event_id,)
    ).fetchone()[0]
    ruling_id = conn.execute(
        "INSERT INTO rulings (event_id, number, judge, draft) VALUES (?, ?, ?, ?)",
        (event_id, number, judge, draft),
    ).lastrowid
    for position, c in enumerate(citations):
        conn.execute(
            "INSERT INTO citations VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ruling_id, position, c.kind, c.document, c.version, c.entry, c.title, c.text),
        )
    return number


def _id_of(conn: sqlite3.Connection, event_id: int, number: int) -> int:
    return conn.execute(
        "SELECT id FROM rulings WHERE event_id = ? AND number = ?", (event_id, number)
    ).fetchone()[0]


def _check_guesses(conn: sqlite3.Connection, address: str, now: float) -> None:
    """Refuse a guess past the limits of wrong codes (from this address, in all) lately."""
    mine, everyone = conn.execute(
        "SELECT SUM(address = ?), COUNT(*) FROM guesses WHERE at >= ?",
        (address, now - GUESS_WINDOW),
    ).fetchone()
    if (mine or 0) >= GUESSES_PER_ADDRESS:
        raise TooManyGuesses(
            "too many wrong codes from this device: wait 15 minutes, or ask the head judge"
        )
    if everyone >= GUESSES_IN_ALL and mine:
        raise TooManyGuesses(
            "too many wrong codes have been tried on this network, one of them from this device:"
            " ask the head judge (the desk can clear them), or wait 15 minutes"
        )


def _add_revision(
    conn: sqlite3.Connection,
    ruling_id: int,
    number: int,
    at: float,
    judge: str,
    change: str,
    fields: dict,
) -> None:
    conn.execute(
        "INSERT INTO revisions (ruling_id, number, at, judge, change, round, table_name, question,"
        " ruling, players, status, note, published) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            ruling_id,
            number,
            at,
            judge,
            change,
            fields.get("round", ""),
            fields.get("table", ""),
            fields.get("question", ""),
            fields.get("ruling", ""),
            fields.get("players", ""),
            fields.get("status", "given"),
            fields.get("note", ""),
            int(bool(fields.get("published", False))),
        ),
    )


def _event(row: sqlite3.Row) -> Event:
    return Event(
        row["id"],
        row["name"],
        row["created_at"],
        row["ends_at"],
        bool(row["precedent"]),
        row["source"],
    )


def _judge(row: sqlite3.Row) -> Judge:
    return Judge(
        row["id"], row["event_id"], row["name"], row["role"], row["removed_at"] is not None
    )


def _citation(row: sqlite3.Row) -> Citation:
    return Citation(
        row["kind"], row["document"], row["version"], row["entry"], row["title"], row["text"]
    )


def _revision(row: sqlite3.Row) -> Revision:
    return Revision(
        row["number"],
        row["at"],
        row["judge"],
        row["change"],
        row["round"],
        row["table_name"],
        row["question"],
        row["ruling"],
        row["players"],
        row["status"],
        row["note"],
        bool(row["published"]),
    )
