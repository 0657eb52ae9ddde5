"""Search by meaning as a search service holds it: loaded once per process, kept on disk, and a
state that every answer reports ("ready", "loading", "missing", "failed", "off")."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from judgekit.meaning import model as meaning_model
from judgekit.meaning.passages import Item
from judgekit.meaning.weights import ModelMissing

log = logging.getLogger(__name__)
# How a process loads it (config SEARCH_MEANING, JUDGEKIT_SEARCH_MEANING): "now" (the model,
# embedding what no cache holds), "kept" (only if the cache holds every vector), "off".
MEANING_MODES = ("now", "kept", "off")
LOCK_WAIT = 900  # seconds one process waits while another embeds the corpus
_LOADED: dict[tuple[str, str], meaning_model.MeaningModel] = {}  # per process: see Meaning.load
_LOADING = threading.Lock()


def items_of(
    meta: Sequence[Mapping], texts: Sequence[str], said: Sequence[tuple[str, ...]] | None = None
) -> list[Item]:
    """The (title, text, sayings) of every indexed item, in item order (tabletalk.py)."""
    said = said if said is not None else [()] * len(meta)
    return [(m["name"], text, s) for m, text, s in zip(meta, texts, said, strict=True)]


def items_digest(items: Sequence[Item]) -> str:
    """What identifies a corpus's items for the process's memo."""
    h = hashlib.sha256()
    for title, text, said in items:
        h.update(f"{len(title)}:{title}{len(text)}:{text}".encode())
        for saying in said:
            h.update(f"{len(saying)}:{saying}".encode())
    return h.hexdigest()


@contextlib.contextmanager
def _only_one(folder: Path | None) -> Iterator[None]:
    """One process embeds at a time (the others then read its vectors from the cache)."""
    try:
        import fcntl
    except ImportError:  # Windows serves from one process
        yield
        return
    if folder is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".embed.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # the waiting thread is a background one
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class Meaning:
    """The model of one search service, and what became of loading it."""

    def __init__(self, cache_dir: str | Path | None) -> None:
        self.folder = Path(cache_dir) / "meaning" if cache_dir else None
        self.state = "off"  # not asked for yet
        self.reason = ""

    def load(
        self,
        meta: Sequence[Mapping],
        texts: Sequence[str],
        only_if_kept: bool = False,
        said: Sequence[tuple[str, ...]] | None = None,
    ) -> meaning_model.MeaningModel | None:
        """The model over these items, from this process's memo, the disk or embedded now; None
        (with the state saying why) when the model's package is missing or loading failed, or
        when only_if_kept and the vectors are not all on disk yet."""
        items = items_of(meta, texts, said)
        key = (str(self.folder), items_digest(items))
        if self.state != "ready":
            self.state = "loading"
        try:
            with _LOADING:
                found = _LOADED.get(key)
                if found is None:
                    found = self._load(items, only_if_kept)
                    if found is None:
                        self.state = "loading"
                        return None
                    _LOADED[key] = found
        except ModelMissing as err:
            self.state, self.reason = "missing", str(err)
            log.warning("search by meaning: %s", err)
            return None
        except (OSError, ValueError, KeyError) as err:  # a damaged model file or cache
            self.state, self.reason = "failed", str(err)
            log.warning("search by meaning failed to load: %s", err)
            return None
        self.state, self.reason = "ready", ""
        return found

    def _load(self, items: list[Item], only_if_kept: bool) -> meaning_model.MeaningModel | None:
        if only_if_kept:
            return meaning_model.load(items, self.folder, embed=False)
        with _only_one(self.folder):
            return meaning_model.load(items, self.folder)
