"""The CPU of one embedding pass (Encoder.embed_many), as the embedder process runs it.

Run: .venv/bin/python tests/benchmarks/bench_pass.py [--passes N] [--size N] [--save F | --check F]
     [--profile | --steps]

Embeds the golden answers' questions `--size` at a time (the embedder's passes hold 1-2) and
prints the process CPU time a pass (the median of the rounds, and each round: process CPU time
is what other processes' load disturbs least). --save writes the vectors; --check compares them
with a saved file, bit for bit (an optimisation must not change one). --profile: cProfile's top
functions; --steps: a question's CPU by step of the layers (the matrices, attention, gelu, norms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.meaning import model as meaning_model  # noqa: E402
from judgekit.meaning import weights  # noqa: E402
from judgekit.meaning.encoder import CLS, SEP, Encoder, _attend, gelu, layer_norm  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "search.jsonl"


def questions() -> list[str]:
    """The golden answers' distinct questions."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    return list(dict.fromkeys(json.loads(line)["q"] for line in lines))


def steps(encoder: Encoder, asked: list[list[int]]) -> None:
    """Each step's CPU time a question (embed_many's steps, one question at a time)."""
    spent: Counter[str] = Counter()

    def timed(name: str, function, *args):  # noqa: ANN001, ANN202
        cpu = time.process_time()
        out = function(*args)
        spent[name] += time.process_time() - cpu
        return out

    for pieces in asked:
        ids = [CLS, *pieces, SEP]
        rows = encoder.words[ids].astype(np.float64) * encoder.word_scale[ids][:, None]
        x = timed("norm", layer_norm, rows + encoder.start[: len(ids)], *encoder.norm)
        for (qkv, out, inner, down), norms in encoder.layers:
            attended = timed("attention", _attend, timed("query, key, value", qkv, x), len(ids))
            x = timed("norm", layer_norm, timed("output", out, attended) + x, *norms[0])
            mixed = timed("gelu", gelu, timed("inner", inner, x))
            x = timed("norm", layer_norm, timed("down", down, mixed) + x, *norms[1])
    total = sum(spent.values())
    for name, seconds in spent.most_common():
        print(f"{name}: {seconds / len(asked) * 1000:.3f} ms a question ({seconds / total:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=400)
    parser.add_argument("--size", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--steps", action="store_true")
    args = parser.parse_args()
    encoder = meaning_model.encoder(weights.find(), None)
    asked = [encoder.pieces(q)[: meaning_model.QUESTION_TOKENS] for q in questions()]
    batches = [
        asked[(i * args.size) % len(asked) :][: args.size] or asked[: args.size]
        for i in range(args.passes)
    ]
    encoder.embed_many(batches[0])  # warm
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(lambda: [encoder.embed_many(b) for b in batches])
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    if args.steps:
        steps(encoder, asked[: args.passes])
        return
    per_pass = []
    for _ in range(args.rounds):
        cpu = time.process_time()
        for batch in batches:
            encoder.embed_many(batch)
        per_pass.append((time.process_time() - cpu) / len(batches) * 1000)
    print(
        f"passes of {args.size}: CPU a pass median {statistics.median(per_pass):.3f} ms "
        f"(rounds: {', '.join(f'{c:.3f}' for c in per_pass)})"
    )
    if args.save or args.check:
        vectors = np.array([v for p in asked for v in encoder.embed_many([p])])
        together = np.array(
            [v for i in range(0, 60, 3) for v in encoder.embed_many(asked[i : i + 3])]
        )
        if args.save:
            np.savez(args.save, alone=vectors, together=together)
        else:
            with np.load(args.check) as saved:
                same = np.array_equal(saved["alone"], vectors) and np.array_equal(
                    saved["together"], together
                )
            print(f"{len(vectors)} + {len(together)} vectors bit for bit the saved ones: {same}")
            if not same:
                raise SystemExit(1)


if __name__ == "__main__":
    main()
