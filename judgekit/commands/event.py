"""`judgekit event`: start an event and show its codes, change a code, remove a judge, back up the
database while serving, import an earlier event as precedent."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path

HOURS = 16


def add_data_dir(parser: argparse.ArgumentParser, again: bool = False) -> None:
    """The --data-dir option: the folder of the events database (events.sqlite).

    again: a task's own copy, so that it may follow the task too (unset, it leaves the one given
    before the task as it is).
    """
    parser.add_argument(
        "--data-dir",
        default=argparse.SUPPRESS if again else None,
        help="folder holding events.sqlite (default: the user's data folder; or JUDGEKIT_DATA_DIR)",
    )


def data_dir(args: argparse.Namespace) -> Path:
    """The folder the events database is in: --data-dir, JUDGEKIT_DATA_DIR, or the default."""
    import os

    from judgekit.events.store import default_data_dir

    chosen = getattr(args, "data_dir", None) or os.environ.get("JUDGEKIT_DATA_DIR")
    return Path(chosen) if chosen else default_data_dir()


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``event`` and its own sub-commands."""
    event = sub.add_parser(
        "event", help="run an event's rulings: new, codes, code, again, remove, backup, import"
    )
    add_data_dir(event)
    tasks = event.add_subparsers(dest="task", required=True)
    new = tasks.add_parser("new", help="start an event; prints its judge code and head judge code")
    new.add_argument("name", help='the event\'s name, e.g. "Regional, 5 Dec"')
    new.add_argument(
        "--hours", type=_hours, default=HOURS, help=f"how long it lasts (default {HOURS})"
    )
    codes = tasks.add_parser("codes", help="show the running event's codes")
    code = tasks.add_parser("code", help="give the running event a new judge code")
    code.add_argument("--head", action="store_true", help="change the head judge's code instead")
    again = tasks.add_parser(
        "again", help="a one-time code for a judge to join again under the same name"
    )
    again.add_argument("name")
    remove = tasks.add_parser("remove", help="remove a judge (their sessions end at once)")
    remove.add_argument("name")
    backup = tasks.add_parser("backup", help="copy the database safely, even while serving")
    backup.add_argument("path", help="a new file")
    imported = tasks.add_parser("import", help="keep an earlier event's JSON export as precedent")
    imported.add_argument("file")
    for task in (new, codes, code, again, remove, backup, imported):
        add_data_dir(task, again=True)
    event.set_defaults(func=cmd_event)


def _hours(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 336:
        raise argparse.ArgumentTypeError(f"must be a whole number of hours, 1 to 336, not {text!r}")
    return int(text)


def cmd_event(args: argparse.Namespace) -> int:
    """Run one event task; exit 1 with a sentence when it cannot be done."""
    from judgekit.events.fields import FieldError
    from judgekit.events.store import Store, StoreError

    store = Store(data_dir(args) / "events.sqlite")
    try:
        store.migrate()
        return TASKS[args.task](store, args)
    except (StoreError, FieldError, OSError) as exc:
        print(f"judgekit event {args.task}: {exc}", file=sys.stderr)
        return 1


def _running(store):
    from judgekit.events.store import StoreError

    found = store.current_event()
    if found is None:
        raise StoreError('no event is running: start one with judgekit event new "NAME"')
    return found


def _print_codes(store, found) -> None:
    judge_code, head_code = store.codes(found.id)
    ends = datetime.fromtimestamp(found.ends_at).strftime("%a %d %b %H:%M")
    print(f"event: {found.name} (until {ends})")
    print(f"judge code: {judge_code}   (floor judges join at /event with it and their name)")
    print(f"head judge code: {head_code}   (appeals, publishing; keep it to yourself)")


def _new(store, args) -> int:
    from judgekit.events import fields

    name = fields.line("event", args.name, True, "the event's name")
    found, _, _ = store.create_event(name, time.time() + args.hours * 3600)
    _print_codes(store, found)
    return 0


def _codes(store, _args) -> int:
    _print_codes(store, _running(store))
    return 0


def _code(store, args) -> int:
    found = _running(store)
    which = "head" if args.head else "judge"
    print(f"new {which} code: {store.change_code(found.id, which)} (judges already joined stay)")
    return 0


def _again(store, args) -> int:
    from judgekit.events.store import REJOIN_SECONDS

    found = _running(store)
    code = store.let_back_in(found.id, args.name)
    print(
        f"{args.name} joins again, under the same name, with the code {code}: once, within "
        f"{REJOIN_SECONDS // 60} minutes; joining signs {args.name} out on every other device"
    )
    if any(j.head and j.name == args.name for j in store.judges(found.id)):
        # The head judge's other way back keeps their laptop and phone signed in together.
        print(
            f"({args.name} is the head judge: joining with the head judge code instead keeps "
            "their other devices signed in, unless they tick “Sign out my other devices”)"
        )
    return 0


def _remove(store, args) -> int:
    judge = store.remove_judge(_running(store).id, args.name)
    print(f"removed {judge.name}: their sessions have ended; their rulings stay")
    return 0


def _backup(store, args) -> int:
    from judgekit.events.store import Store

    store.backup(args.path)
    print(
        f"copied {store.path} to {args.path} (its integrity check: {Store(args.path).integrity()})"
    )
    return 0


def _import(store, args) -> int:
    path = Path(args.file)
    if path.stat().st_size > 50_000_000:
        print(f"{path} is over 50 MB: not an export", file=sys.stderr)
        return 1
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        print(f"{path}: not JSON ({exc})", file=sys.stderr)
        return 1
    found = store.import_event(data, path.name)
    print(f"imported {found.name!r} as precedent: {len(store.rulings(found.id))} rulings")
    return 0


TASKS = {
    "new": _new,
    "codes": _codes,
    "code": _code,
    "again": _again,
    "remove": _remove,
    "backup": _backup,
    "import": _import,
}
