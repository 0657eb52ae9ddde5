"""The event's data as the rest of judgekit reads it: frozen dataclasses, built from the store."""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("judge", "head")
STATUSES = ("given", "upheld", "overturned")
# What each revision of a ruling did; a revision is never changed once written.
CHANGES = ("recorded", "upheld", "overturned", "published", "unpublished")


@dataclass(frozen=True)
class Event:
    """An event: its name, when it ends (sessions end then), and whether it is imported precedent."""

    id: int
    name: str
    created_at: float
    ends_at: float
    precedent: bool = False
    source: str = ""

    def over(self, now: float) -> bool:
        """Whether the event has ended at ``now``."""
        return now >= self.ends_at


@dataclass(frozen=True)
class Judge:
    """A judge of an event, as joined with a name; the head judge can appeal, publish and admin."""

    id: int
    event_id: int
    name: str
    role: str
    removed: bool = False

    @property
    def head(self) -> bool:
        """Whether this judge is a head judge."""
        return self.role == "head"


@dataclass(frozen=True)
class SignedOut:
    """A session ended by its judge joining again on another device (the device still holds it)."""

    judge: str
    head: bool
    at: float


@dataclass(frozen=True)
class Citation:
    """A passage a ruling cites, pinned to where it was and to the text as it was then.

    kind "entry": document, version and entry name a corpus entry; kind "card": document is the
    edition ("2E", "1E") and entry the card's id (version is empty).
    """

    kind: str
    document: str
    version: str
    entry: str
    title: str
    text: str

    @property
    def spec(self) -> str:
        """The citation as a "cite" parameter: ``entry:doc/version/id`` or ``card:2E/id``."""
        if self.kind == "card":
            return f"card:{self.document}/{self.entry}"
        return f"entry:{self.document}/{self.version}/{self.entry}"


@dataclass(frozen=True)
class Revision:
    """One state of a ruling, written once: who made the change, when, and what it says."""

    number: int
    at: float
    judge: str
    change: str
    round: str
    table: str
    question: str
    ruling: str
    players: str
    status: str
    note: str
    published: bool


@dataclass(frozen=True)
class Ruling:
    """A ruling and its every revision, oldest first (the last is what it says now)."""

    id: int
    event_id: int
    number: int
    judge: str
    citations: tuple[Citation, ...]
    revisions: tuple[Revision, ...]

    @property
    def now(self) -> Revision:
        """The ruling as it stands."""
        return self.revisions[-1]

    @property
    def recorded_at(self) -> float:
        """When it was first recorded."""
        return self.revisions[0].at
