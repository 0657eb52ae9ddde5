"""Nesting past the limit is refused in judgekit's words, whatever libyaml's own limit says."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judgekit.corpus import yamlio
from judgekit.corpus.yamlio import MAX_DEPTH, YamlError, load_yaml


class _StricterLibyaml(yaml.SafeLoader):
    """A stand-in for a libyaml whose own nesting limit (10) is below judgekit's, in its words."""

    def fetch_flow_collection_start(self, token_class):
        if self.flow_level >= 10:
            raise yaml.scanner.ScannerError(
                "while increasing flow level", self.get_mark(), "too deep for me", self.get_mark()
            )
        super().fetch_flow_collection_start(token_class)


def _refusal(tmp_path: Path, text: str) -> tuple[Path, str]:
    """Where the text was written, and load_yaml's refusal of it."""
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(YamlError) as refused:
        load_yaml(path)
    return path, str(refused.value)


def test_brackets_too_deep_give_judgekits_message_whatever_the_parser_says(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlio, "_Loader", _StricterLibyaml)
    path, said = _refusal(tmp_path, "id: x\ntitle: a\nitems:\n  - " + "[" * 60 + "]" * 60 + "\n")
    assert said == f"{path}:4: nested more than {MAX_DEPTH} levels deep"


def test_the_parsers_own_error_stands_when_nothing_is_too_deep(tmp_path, monkeypatch):
    # Eleven levels: too deep for the stand-in, well within judgekit's limit.
    monkeypatch.setattr(yamlio, "_Loader", _StricterLibyaml)
    path, said = _refusal(tmp_path, "title: " + "[" * 11 + "]" * 11 + "\n")
    assert said == f"{path}:1: invalid YAML: too deep for me"


def test_a_syntax_error_is_still_libyamls(tmp_path):
    path, said = _refusal(tmp_path, "title: [a, b\nnext: c\n")
    assert said.startswith(f"{path}:") and "invalid YAML" in said and "nested" not in said
