"""`judgekit event`: start an event, show and change its codes, remove a judge, back up, import."""

from __future__ import annotations

import json

from judgekit.commands import main
from judgekit.events.exchange import event_json
from judgekit.events.store import Store


def _run(capsys, data_dir, *args: str) -> tuple[int, str, str]:
    code = main(["event", "--data-dir", str(data_dir), *args])
    out, err = capsys.readouterr()
    return code, out, err


def _codes(out: str) -> tuple[str, str]:
    """The judge code and head judge code a command printed."""
    found = {}
    for line in out.splitlines():
        name, _, rest = line.partition(" code: ")
        if rest:
            found[name] = rest.split()[0]
    return found["judge"], found["head judge"]


def test_new_codes_code_remove_and_backup(capsys, tmp_path):
    code, out, _ = _run(capsys, tmp_path, "new", "Regional, 5 Dec", "--hours", "8")
    assert code == 0 and out.startswith("event: Regional, 5 Dec (until ")
    judge_code, head_code = _codes(out)
    assert _codes(_run(capsys, tmp_path, "codes")[1]) == (judge_code, head_code)
    store = Store(tmp_path / "events.sqlite")
    event = store.current_event()
    store.join(event.id, judge_code, "Sam", "10.0.0.1")
    code, out, _ = _run(capsys, tmp_path, "code")
    new_code = out.split()[3]
    assert code == 0 and new_code != judge_code and store.codes(event.id) == (new_code, head_code)
    assert _run(capsys, tmp_path, "code", "--head")[0] == 0
    assert store.codes(event.id)[1] != head_code
    # Sam on a new device: a one-time code for that name joins the same judge again.
    code, out, _ = _run(capsys, tmp_path, "again", "Sam")
    assert code == 0 and out.startswith("Sam joins again, under the same name, with the code ")
    again = out.split("the code ")[1].split(":")[0]
    judge, _token = store.join(event.id, again, "Sam", "10.0.0.2")
    assert judge.name == "Sam" and len(store.judges(event.id)) == 1
    code, out, _ = _run(capsys, tmp_path, "remove", "Sam")
    assert code == 0 and "removed Sam" in out and store.judges(event.id)[0].removed
    code, _, err = _run(capsys, tmp_path, "remove", "Nobody")
    assert code == 1 and "no judge named 'Nobody'" in err
    code, out, _ = _run(capsys, tmp_path, "backup", str(tmp_path / "copy.sqlite"))
    assert code == 0 and "integrity check: ok" in out
    code, _, err = _run(capsys, tmp_path, "backup", str(tmp_path / "copy.sqlite"))
    assert code == 1 and "exists" in err


def test_the_data_folder_may_follow_the_task(capsys, tmp_path):
    assert main(["event", "new", "Late option", "--data-dir", str(tmp_path)]) == 0
    assert Store(tmp_path / "events.sqlite").current_event().name == "Late option"


def test_no_event_running_is_said(capsys, tmp_path):
    code, _, err = _run(capsys, tmp_path, "codes")
    assert code == 1 and "no event is running" in err


def test_import_keeps_an_export_as_precedent_and_refuses_what_is_not_one(capsys, tmp_path):
    earlier = Store(tmp_path / "earlier" / "events.sqlite")
    earlier.migrate()
    event, judge_code, _ = earlier.create_event("Last year", 2_000_000_000)
    judge, _ = earlier.join(event.id, judge_code, "Lee", "10.0.0.1")
    earlier.record(
        event.id, judge, {"round": "1", "table": "2", "question": "q", "ruling": "r"}, []
    )
    export = tmp_path / "last-year.json"
    export.write_text(json.dumps(event_json(event, earlier.rulings(event.id))))
    code, out, _ = _run(capsys, tmp_path, "import", str(export))
    assert code == 0 and "imported 'Last year' as precedent: 1 rulings" in out
    (imported,) = Store(tmp_path / "events.sqlite").events()
    assert imported.precedent and imported.source == "last-year.json"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    code, _, err = _run(capsys, tmp_path, "import", str(bad))
    assert code == 1 and "not a judgekit export" in err
    bad.write_text("not json")
    assert _run(capsys, tmp_path, "import", str(bad))[0] == 1


def test_again_for_the_head_judge_signs_out_their_other_devices_and_says_the_other_way(
    capsys, tmp_path
):
    """The head judge's laptop and phone stay signed in together; `judgekit event again` with
    their name gives a code that signs both out (a lost phone), and says that the head judge
    code keeps them unless "Sign out my other devices" is ticked. A floor judge is not told so."""
    _code, out, _ = _run(capsys, tmp_path, "new", "Regional, 5 Dec")
    judge_code, head_code = _codes(out)
    store = Store(tmp_path / "events.sqlite")
    event = store.current_event()
    _ann, laptop = store.join(event.id, head_code, "Ann", "127.0.0.1")
    _ann, phone = store.join(event.id, head_code, "Ann", "10.0.0.9")
    store.join(event.id, judge_code, "Sam", "10.0.0.1")
    assert store.session_judge(laptop) and store.session_judge(phone)
    code, out, _ = _run(capsys, tmp_path, "again", "Ann")
    assert code == 0 and "joining signs Ann out on every other device" in out
    assert "Ann is the head judge: joining with the head judge code instead keeps" in out
    again = out.split("the code ")[1].split(":")[0]
    store.join(event.id, again, "Ann", "10.0.0.10")
    assert store.session_judge(laptop) is None and store.session_judge(phone) is None
    assert "head judge" not in _run(capsys, tmp_path, "again", "Sam")[1]
