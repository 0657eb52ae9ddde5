"""The pack's search by meaning: the model and the corpus's chunk vectors, as files under meaning/.

They are the server's own: the integer form the server's encoder computes with (meaning/model.py:
integer_tensors), its vocabulary, and the chunk vectors of the server's ``Meaning`` over the
server index's items, which are the pack's search items in the same order (checked here), with
the sentences each chunk holds (search/focus.py: the snippets of results found by meaning). The
browser (static/js/pack-meaning.js) embeds a question as the server does and takes its nearness
to each item as the server does, so both rank alike.

The part is not in the base pack: the service worker does not store it, and the zip leaves it
out. A judge stores it on a phone when asked ("Store search by meaning on this phone"), then it
is kept under its content-hashed names (pack-meaning.js). ``meaning/manifest.js`` (in the base
pack: a page knows the part's size offline and from file://) names the files with their sizes
and sha256.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from flask import Flask
from safetensors.numpy import save

FOLDER = "meaning"
MANIFEST = f"{FOLDER}/manifest.js"


class MeaningUnavailable(Exception):
    """The pack is built without search by meaning (the model is missing, or was not asked for)."""


def _hashed(out: Path, stem: str, ext: str, data: bytes) -> dict[str, Any]:
    digest = hashlib.sha256(data).hexdigest()
    name = f"{FOLDER}/{stem}.{digest[:12]}.{ext}"
    (out / name).write_bytes(data)
    return {"name": name, "size": len(data), "sha256": digest}


def _same_items(index, items: list[dict[str, Any]]) -> None:
    """The server index's items are the pack's, in the pack's order (nearness is by number)."""
    if len(index.meta) != len(items):
        raise MeaningUnavailable(
            f"the server's index holds {len(index.meta)} items, the pack's search {len(items)}"
        )
    for number, (meta, text, item) in enumerate(zip(index.meta, index.texts, items, strict=True)):
        if (meta["key"], meta["name"], text) != (item["key"], item["name"], item["text"]):
            raise MeaningUnavailable(
                f"item {number} differs between the server's index ({meta['key']}) "
                f"and the pack's search ({item['key']})"
            )


def write_meaning(app: Flask, out: Path, items: list[dict[str, Any]]) -> list[str]:
    """Write meaning/ (the model, the vocabulary, the chunk vectors, the manifest) from the app's
    search service; returns the files written. MeaningUnavailable when its model is not loaded."""
    from judgekit.meaning import model, weights

    search = app.extensions["judgekit"]["search"]
    if search.meaning.state == "off":
        search.load_meaning()
    index = search.index
    meaning = index.meaning
    if meaning is None:
        raise MeaningUnavailable(
            f"search by meaning is {search.meaning.state}: {search.meaning.reason or 'not loaded'}"
        )
    if index.focus is None:
        raise MeaningUnavailable("search by meaning is loaded without its chunks' sentences")
    _same_items(index, items)
    files = weights.find()
    (out / FOLDER).mkdir(parents=True, exist_ok=True)
    tensors = model.integer_tensors(files, search.meaning.folder)
    passages = meaning.passages
    parts = {
        "model": _hashed(out, "model", "safetensors", save(tensors)),
        "vocab": _hashed(
            out, "vocab", "txt", "\n".join(weights.vocabulary(files.tokenizer)).encode()
        ),
        "passages": _hashed(
            out,
            "passages",
            "safetensors",
            save(
                {
                    # Float32: the server's vectors are float32 numbers too (passages.py)
                    "vectors": passages.vectors.astype(np.float32),
                    "owners": passages.owners.astype(np.int32),
                    "count": np.array([passages.count], dtype=np.int32),
                    # Each chunk's sentences (focus.py), for the snippets of results by meaning.
                    "focus": index.focus.table(),
                }
            ),
        ),
    }
    manifest = {
        "format": weights.FORMAT,
        "model": files.digest(),
        "licence": weights.LICENCE,
        "items": len(items),
        "chunks": int(len(passages.owners)),
        "size": sum(p["size"] for p in parts.values()),
        "files": parts,
    }
    text = json.dumps(manifest, ensure_ascii=False, indent=1)
    (out / MANIFEST).write_text(f"self.JUDGEKIT_MEANING = {text};\n", encoding="utf-8")
    return [p["name"] for p in parts.values()] + [MANIFEST]


def is_meaning_part(name: str) -> bool:
    """A file of the optional part (not stored by the service worker, not zipped)."""
    return name.startswith(FOLDER + "/") and name != MANIFEST
