"""Benchmark the judge pack's search by meaning on a phone profile (issue #27: the first answer by
meaning within 3 s of the first question, later ones within 300 ms).

Builds the pack of the real corpus with its meaning part (or reads --pack DIR), serves it with a
plain static file server on 127.0.0.1 and opens its search page in headless Chromium at a phone
viewport. The meaning part is stored once (unthrottled: the judge did it earlier, on Wi-Fi);
then each run is a new visit of the search page with the CPU slowed 4x
(``Emulation.setCPUThrottlingRate``, as Lighthouse's mobile runs) and the part already on the
phone. Measured in the page (``performance.now()``):
- loaded: from the navigation's start until the model is loaded in its worker (ready);
- words 1st / first: from the first question typed to its answer by words, then by meaning, on
  the screen (both after search.js's pause of 120 ms after the last key);
- words / later: the same for each later question (each a new one: nothing is kept between);
- drawn 1st / drawn: until the frame that shows the answer by meaning is drawn (the judge sees
  it: its style, layout and paint done; timed after the frame, at the next task);
- whole / whole enter: until every result of that answer is in the list and drawn (the pack's
  search page draws its first screenful first and adds the rest after that frame);
- enter (--enter): each later question typed at once and sent with Enter, from the key until
  its answer by meaning is drawn, whether the page answers in place or opens again;
- worker: the worker's own milliseconds per question (pack-meaning.js: timings);
- cpu enter / cpu whole (--enter --cpu): the page's main thread's own CPU time (a Chrome trace's
  thread time of its tasks) from the key until the answer is drawn, and until all of it is: the
  page's work, which the machine's load does not lengthen as it does wall-clock times.
- each (--enter --each): for every answer, where its time went (`_stages`, from a Chrome trace
  and pack-search.js's TimeStamps): the words' stage searched, the worker's pass and its
  nearness in the page, the answer made, shown, the next frame's main-thread work done (its
  Commit: "frame", what the judge sees; "drawn" above is the next task after it, which the
  page's own tasks queued after the frame delay), the main thread's CPU, time off a core
  inside its tasks (the machine), idle time, other tasks ahead of the answer, and tasks after
  the frame.
With --enter, a question the typing pause answered before the key came (a loaded machine) is not
a figure of Enter: counted apart ("answered before the key"). --read MS waits after each answer
(the judge reads it) before the next question.

DevTools' CPU slowdown throttles the page's main thread only: Chromium (156) refuses
`Emulation.setCPUThrottlingRate` on the worker's own DevTools session ("Operation is only
supported for pages, not workers"; --slow-worker asks it each visit and says), so the worker runs at this machine's speed and its times
are also given ×4 ("worker ×4"), the figure a phone 4x slower would take. The throttle is a
signal every 0.2 ms whose handler spins for three times the time since the last one: the
slowed thread holds about 0.5-0.75 of a core even when idle, on a 2-core machine beside the
worker, the compositor and the benchmark itself. Record the machine's load too: on a shared
machine the times are longer than on an idle one (--each's "off").

Run: .venv/bin/python tests/benchmarks/bench_pack_meaning.py [--runs 3] [--pack DIR] [--profile]
[--enter [--cpu] [--each]] [--read MS] [--slow-worker]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from judgekit.pack.build import build, pack_app  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.test_pack_browser import PHONE  # noqa: E402
from tests.test_pack_browser import static_server as serve_folder  # noqa: E402

CPU_SLOWDOWN = 4
QUESTIONS = [
    "what happens when my personnel are stopped during a mission attempt",
    "can I look at my opponent's dilemma stack before facing it",
    "how many cards do I draw at the end of my turn",
    "my ship ran out of range while moving between missions",
    "two copies of the same dilemma in one stack",
]
BY_MEANING = "!!document.querySelector('#search-results .search-results[data-by-meaning]')"


def _poll(page, expression: str, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.01)


# In the page: when the results region first changes after the question (its answer by words),
# when an answer by meaning is in it, and when the frame that shows it has been drawn (the
# judge sees it: its style, layout and paint done). Epoch milliseconds (timeOrigin + now), so
# that an answer shown by another page (Enter reloading the search page) is timed the same.
WATCH = """() => {
  const epoch = () => performance.timeOrigin + performance.now();
  const box = document.getElementById('q'); box.focus(); box.value = '';
  const target = document.getElementById('search-results');
  const old = target.querySelector('.search-results');
  if (old) old.removeAttribute('data-by-meaning');
  window.__jkWords = window.__jkMeaning = window.__jkPainted = window.__jkWhole = 0;
  // Awaited once (not polled: each poll would take the slowed page's thread from the search).
  let done, whole;
  window.__jkDone = new Promise((resolve) => { done = resolve; });
  window.__jkWholeDone = new Promise((resolve) => { whole = resolve; });
  // Every result of the answer by meaning: as many as its summary says it shows.
  const all = () => {
    const answer = target.querySelector('.search-results[data-by-meaning]');
    const summary = answer && answer.querySelector('.search-summary');
    if (!summary) return false;
    const first = /showing the first (\\d+)/.exec(summary.textContent);
    return answer.querySelectorAll('.result').length >= (first ? Number(first[1]) : Number(answer.dataset.total));
  };
  sessionStorage.removeItem('jkEnter');
  if (window.__jkObserver) window.__jkObserver.disconnect();
  window.__jkObserver = new MutationObserver(() => {
    const now = epoch();
    if (!window.__jkWords) window.__jkWords = now;
    if (!window.__jkMeaning && target.querySelector('.search-results[data-by-meaning]')) {
      window.__jkMeaning = now;
      performance.mark('jk-shown');
      requestAnimationFrame(() => setTimeout(() => {
        window.__jkPainted = epoch(); performance.mark('jk-drawn'); done();
      }, 0));
    }
    if (window.__jkMeaning && !window.__jkWhole && all()) {
      window.__jkWhole = now;
      requestAnimationFrame(() => setTimeout(() => {
        window.__jkWhole = epoch(); performance.mark('jk-whole'); whole();
      }, 0));
    }
  });
  window.__jkObserver.observe(target, {childList: true, subtree: true, attributes: true});
  window.__jkAsked = epoch();
}"""
# A page opened by Enter (the search page reloaded with the question in its address): when its
# answer by meaning is drawn, as WATCH times it.
AFTER_ENTER = """(() => {
  if (!sessionStorage.getItem('jkEnter')) return;
  const epoch = () => performance.timeOrigin + performance.now();
  let done;
  window.__jkDone = new Promise((resolve) => { done = resolve; });
  document.addEventListener('DOMContentLoaded', () => {
    const target = document.getElementById('search-results');
    const seen = () => target.querySelector('.search-results[data-by-meaning]');
    const watch = new MutationObserver(() => {
      if (window.__jkMeaning || !seen()) return;
      window.__jkMeaning = epoch();
      requestAnimationFrame(() => setTimeout(() => { window.__jkPainted = epoch(); done(); }, 0));
    });
    watch.observe(target, {childList: true, subtree: true, attributes: true});
  });
})()"""
# The time of the Enter key; a page left for another (the search page opened again) is marked:
# an answer it draws meanwhile is not the one the judge is left with.
ENTER_AT = """() => {
  window.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') performance.mark('jk-key');
    if (ev.key === 'Enter') sessionStorage.setItem('jkEnter', String(performance.timeOrigin + performance.now()));
  }, {capture: true, once: true});
  window.addEventListener('beforeunload', () => { window.__jkLeaving = true; }, {once: true});
}"""


def _ask(page, question: str) -> tuple[float, float, float, float]:
    """Type a question at once; ms until its answer by words, and by meaning, are in the page,
    until the answer by meaning is drawn, and until all its results are (all counting
    search.js's pause of 120 ms after the last key)."""
    page.evaluate(WATCH)
    page.keyboard.insert_text(question)
    page.evaluate("async () => { await window.__jkDone; await window.__jkWholeDone; }")
    return page.evaluate(
        "() => [window.__jkWords - window.__jkAsked, window.__jkMeaning - window.__jkAsked,"
        " window.__jkPainted - window.__jkAsked, window.__jkWhole - window.__jkAsked]"
    )


def _enter(page, question: str) -> tuple[float, float | None]:
    """Type a question at once and press Enter: ms from the key until its answer by meaning is
    drawn, whether the page answers in place or opens the search page again; and until all its
    results are drawn (None when the page opened again)."""
    page.evaluate(WATCH)
    page.evaluate(ENTER_AT)
    page.keyboard.insert_text(question)
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 180
    while True:
        try:
            drawn = page.evaluate(
                "async () => { await window.__jkDone; return window.__jkLeaving ? null :"
                " window.__jkPainted - Number(sessionStorage.getItem('jkEnter')); }"
            )
            if drawn is not None:
                whole = page.evaluate(
                    "async () => { if (!window.__jkWholeDone) return null; await window.__jkWholeDone;"
                    " return window.__jkWhole - Number(sessionStorage.getItem('jkEnter')); }"
                )
                return drawn, whole
            page.wait_for_timeout(20)  # drawn by the page being left: wait for the next
        except PlaywrightError:
            # The page was replaced under the wait (Enter opened the search page again).
            page.wait_for_load_state("domcontentloaded")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no answer by meaning drawn after Enter: {question}")


TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]


def _thread(events: list[dict], name: str) -> tuple | None:
    """The busiest thread of that name in a trace (the page's own, not another tab's)."""
    threads = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == name
    }
    busy: dict[tuple, float] = {}
    for e in events:
        if e.get("ph") == "X" and (e["pid"], e["tid"]) in threads:
            busy[e["pid"], e["tid"]] = busy.get((e["pid"], e["tid"]), 0) + e.get("dur", 0)
    return max(busy, key=busy.get) if busy else None


def _tasks(events: list[dict], thread: tuple) -> list[dict]:
    """A thread's outermost trace events, in order: each task once."""
    tasks = sorted(
        (e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) == thread and "dur" in e),
        key=lambda e: e["ts"],
    )
    top, end = [], -1.0
    for e in tasks:
        if e["ts"] >= end:
            top.append(e)
            end = e["ts"] + e["dur"]
    return top


def _cpu(events: list[dict]) -> tuple[float, float] | None:
    """The page's main thread's CPU ms (its top-level tasks' thread time) from the key (mark
    jk-key) until the answer was drawn (jk-drawn), and until all of it was (jk-whole)."""
    marks = {e["name"]: e["ts"] for e in events if e.get("name", "").startswith("jk-")}
    if "jk-key" not in marks or "jk-drawn" not in marks:
        return None
    main = _thread(events, "CrRendererMain")
    top = _tasks(events, main)

    def until(stop: float) -> float:
        return (
            sum(
                e.get("tdur", 0)
                for e in top
                if e["ts"] + e["dur"] >= marks["jk-key"] and e["ts"] <= stop
            )
            / 1000
        )

    return until(marks["jk-drawn"]), until(marks.get("jk-whole", marks["jk-drawn"]))


def _stages(events: list[dict]) -> dict[str, float] | None:
    """Where one answer sent with Enter spent its time, in ms from the key (a trace of it).

    Stages (pack-search.js's TimeStamps, the benchmark's marks): words (its words' stage
    searched), near (the worker's nearness in the page: before the key when typing asked it),
    answer (the answer's HTML made), shown (in the page), frame (the main thread's work of the
    next frame done: its Commit), drawn (the benchmark's next task after that frame). The
    worker's pass (its thread's task for the question: start, end, its CPU). The main thread
    from the key until drawn: its CPU (thread time, the throttle's spinning included), off
    (time inside its tasks that it was not on a core: the machine), idle (no task: waiting for
    the worker or the frame), before (tasks other than ours ahead of the answer: timers, idle
    callbacks, a previous list's rest), after (the page's tasks between the frame and drawn)."""
    marks = {e["name"]: e["ts"] for e in events if e.get("name", "").startswith("jk-")}
    if not {"jk-key", "jk-drawn", "jk-shown"} <= marks.keys():
        return None
    key, drawn, shown = marks["jk-key"], marks["jk-drawn"], marks["jk-shown"]
    main = _thread(events, "CrRendererMain")

    def ms(ts: float) -> float:
        return (ts - key) / 1000

    stamps = sorted(
        (e["ts"], e["args"]["data"].get("message", ""))
        for e in events
        if e.get("name") == "TimeStamp" and (e["pid"], e["tid"]) == main
    )
    out: dict[str, float] = {"shown": ms(shown), "drawn": ms(drawn)}
    answer = [ts for ts, m in stamps if m == "judgekit answer" and key <= ts <= shown]
    if answer:
        out["answer"] = ms(answer[-1])
    words = [ts for ts, m in stamps if m == "judgekit words" and key <= ts <= shown]
    if words:
        out["words"] = ms(words[-1])
    near = [ts for ts, m in stamps if m == "judgekit near" and ts <= shown]
    if near:
        out["near"] = ms(near[-1])
    commits = [
        e["ts"] + e["dur"]
        for e in events
        if e.get("name") == "Commit"
        and "dur" in e
        and (e["pid"], e["tid"]) == main
        and e["ts"] >= shown
    ]
    if commits:
        out["frame"] = ms(min(commits))
    worker = _thread(events, "DedicatedWorker thread")
    if worker and near:
        passes = [
            e
            for e in _tasks(events, worker)
            if e["ts"] + e["dur"] <= near[-1] and e["dur"] > 1000  # its question's pass
        ]
        if passes:
            last = passes[-1]
            out["worker from"] = ms(last["ts"])
            out["worker to"] = ms(last["ts"] + last["dur"])
            out["worker cpu"] = last.get("tdur", 0) / 1000
    top = _tasks(events, main)
    ours = [e for e in top if e["ts"] + e["dur"] >= key and e["ts"] <= drawn]
    out["cpu"] = sum(e.get("tdur", 0) for e in ours) / 1000
    inside = sum(min(e["ts"] + e["dur"], drawn) - max(e["ts"], key) for e in ours) / 1000
    out["off"] = max(0.0, inside - out["cpu"])
    out["idle"] = ms(drawn) - inside
    made = answer[-1] if answer else shown
    # Ahead of the answer: tasks that began after the key and ended before it was made, but
    # for the one that took the worker's answer (it holds the "near" stamp) and the key's own.
    out["before"] = (
        sum(
            e["dur"]
            for e in top
            if key < e["ts"]
            and e["ts"] + e["dur"] < made
            and not (near and e["ts"] <= near[-1] <= e["ts"] + e["dur"])
        )
        / 1000
    )
    if commits:
        out["after"] = (
            sum(
                min(e["ts"] + e["dur"], drawn) - e["ts"]
                for e in top
                if min(commits) <= e["ts"] < drawn
            )
            / 1000
        )
    return out


EACH = [
    "words", "near", "answer", "shown", "frame", "drawn",
    "worker from", "worker to", "worker cpu", "cpu", "off", "idle", "before", "after",
]  # fmt: skip


def _throttle_worker(browser, page) -> str | None:
    """Ask DevTools to slow the page's meaning worker too (its own session: Target.attachToTarget,
    then Emulation.setCPUThrottlingRate): None when it is slowed, else why not."""
    session = browser.new_browser_cdp_session()
    replies: list[dict] = []
    session.on(
        "Target.receivedMessageFromTarget", lambda ev: replies.append(json.loads(ev["message"]))
    )
    try:
        workers = [
            t
            for t in session.send("Target.getTargets")["targetInfos"]
            if t["type"] == "worker" and "pack-meaning" in t["url"]
        ]
        if not workers:
            return "no meaning worker found"
        attached = session.send(
            "Target.attachToTarget", {"targetId": workers[-1]["targetId"], "flatten": False}
        )
        message = {
            "id": 1,
            "method": "Emulation.setCPUThrottlingRate",
            "params": {"rate": CPU_SLOWDOWN},
        }
        session.send(
            "Target.sendMessageToTarget",
            {"sessionId": attached["sessionId"], "message": json.dumps(message)},
        )
        deadline = time.monotonic() + 10
        answer = None
        while answer is None and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # the replies come as events: let them in
            answer = next((r for r in replies if r.get("id") == 1), None)
        if answer is None:
            return "no answer from the worker's session"
        error = answer.get("error")
        return error["message"] if error else None
    finally:
        session.detach()


def _self_times(profile: dict, top: int = 12) -> list[tuple[float, str]]:
    """The functions that held the page's thread longest in a CDP CPU profile: self ms each."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    spent: dict[str, float] = {}
    stamps = profile["timeDeltas"]
    for sample, delta in zip(profile["samples"][1:], stamps[1:], strict=False):
        frame = nodes[sample]["callFrame"]
        name = f"{frame['functionName'] or '(anonymous)'} {Path(frame['url']).name}:{frame['lineNumber'] + 1}"
        spent[name] = spent.get(name, 0.0) + delta / 1000
    return sorted(((ms, name) for name, ms in spent.items()), reverse=True)[:top]


def run(
    browser,
    base: str,
    runs: int,
    profile: bool = False,
    enter: bool = False,
    cpu: bool = False,
    read_ms: int = 0,
    each: bool = False,
    slow_worker: bool = False,
) -> dict[str, list[float]]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=3, is_mobile=True)
    context.add_init_script(AFTER_ENTER)
    out: dict[str, list[float]] = {
        "loaded": [],
        "words 1st": [],
        "first": [],
        "drawn 1st": [],
        "words": [],
        "later": [],
        "drawn": [],
        "whole": [],
        "enter": [],
        "whole enter": [],
        "cpu enter": [],
        "cpu whole": [],
        "answered before the key": [],
        "worker": [],
    }
    try:
        page = context.new_page()
        page.goto(f"{base}/search/index.html")
        _poll(page, "() => !!window.JudgekitMeaning && JudgekitMeaning.state() === 'not stored'")
        page.evaluate("() => JudgekitMeaning.store()")
        _poll(page, "() => JudgekitMeaning.state() === 'ready'", 600)
        page.close()
        for _ in range(runs):
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            page.goto(f"{base}/search/index.html", wait_until="domcontentloaded")
            _poll(page, "() => !!window.JudgekitMeaning && JudgekitMeaning.state() === 'ready'")
            out["loaded"].append(page.evaluate("() => performance.now()"))
            if slow_worker:
                refused = _throttle_worker(browser, page)
                print(f"  the worker {'not slowed: ' + refused if refused else 'slowed too'}")
            words, meaning, drawn, _ = _ask(page, QUESTIONS[0])
            out["words 1st"].append(words)
            out["first"].append(meaning)
            out["drawn 1st"].append(drawn)
            page.wait_for_timeout(read_ms)
            if profile:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                cdp.send("Profiler.start")
            for question in QUESTIONS[1:]:
                if enter:
                    if cpu or each:
                        browser.start_tracing(page=page, categories=TRACED)
                    drawn, whole = _enter(page, question)
                    traced = json.loads(browser.stop_tracing()) if cpu or each else None
                    page.wait_for_timeout(read_ms)
                    if drawn <= 0:  # the typing pause answered it before the key came
                        out["answered before the key"].append(drawn)
                        continue
                    out["enter"].append(drawn)
                    if whole is not None:
                        out["whole enter"].append(whole)
                    spent = traced and _cpu(traced["traceEvents"])
                    if spent:
                        out["cpu enter"].append(spent[0])
                        out["cpu whole"].append(spent[1])
                    stages = each and _stages(traced["traceEvents"])
                    if stages:
                        print(
                            f"  {drawn:5.0f} ms:"
                            + "".join(
                                f" {name} {stages[name]:.0f}" for name in EACH if name in stages
                            ),
                            flush=True,
                        )
                        for name, value in stages.items():
                            out.setdefault(f"each {name}", []).append(value)
                    continue
                words, meaning, drawn, whole = _ask(page, question)
                out["words"].append(words)
                out["later"].append(meaning)
                out["drawn"].append(drawn)
                out["whole"].append(whole)
                page.wait_for_timeout(read_ms)
            if profile:
                # The later questions' main thread (4x slowed), by function: where the time goes.
                print("later questions, the page's thread, self time (ms, all 4 questions):")
                for ms, name in _self_times(cdp.send("Profiler.stop")["profile"]):
                    print(f"  {ms:8.1f}  {name}")
                profile = False
            out["worker"] += page.evaluate("() => JudgekitMeaning.timings()")
            page.close()
    finally:
        context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pack", help="a built pack with its meaning part (default: build one)")
    parser.add_argument(
        "--profile", action="store_true", help="print where the first run's later questions spend"
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="with --enter: the page's main-thread CPU time for each answer (a Chrome trace)",
    )
    parser.add_argument(
        "--slow-worker",
        action="store_true",
        help="ask DevTools to slow the meaning worker too (its own session), and say if it did",
    )
    parser.add_argument(
        "--each",
        action="store_true",
        help="with --enter: print where each answer spent its time (stages from a Chrome trace)",
    )
    parser.add_argument(
        "--read", type=int, default=0, help="ms to wait after each answer (the judge reads it)"
    )
    parser.add_argument(
        "--enter",
        action="store_true",
        help="send each later question with Enter (timed from the key), not by the typing pause",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.pack) if args.pack else Path(tmp) / "pack"
        if not args.pack:
            result = build(pack_app(meaning=True), folder)
            assert result.meaning_size, result.meaning_note
        with serve_folder(folder) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                times = run(
                    browser,
                    base,
                    args.runs,
                    args.profile,
                    args.enter,
                    args.cpu,
                    args.read,
                    args.each,
                    args.slow_worker,
                )
            finally:
                browser.close()
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; CPU {CPU_SLOWDOWN}x slower"
    )
    for name, values in times.items():
        if name == "answered before the key":
            if values:
                print(f"  answered before the key (not counted): {len(values)}")
            continue
        if values and name.startswith("each "):  # a stage: ms from the key
            print(
                f"  {name:<16} median {statistics.median(values):7.0f} ms  max {max(values):7.0f} ms"
            )
        elif values:
            # The target is for every later answer: how many took longer than 300 ms.
            over = sum(v > 300 for v in values)
            print(
                f"  {name:<8} median {statistics.median(values):7.0f} ms  "
                f"max {max(values):7.0f} ms  ({len(values)}; over 300 ms: {over})"
            )
    worker = times["worker"]
    if worker:
        print(f"  worker ×{CPU_SLOWDOWN} median {statistics.median(worker) * CPU_SLOWDOWN:7.0f} ms")


if __name__ == "__main__":
    main()
