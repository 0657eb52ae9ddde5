"""The search page (/search), its live-results fragment, and the judge's remembered edition."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request
from flask.typing import ResponseReturnValue

from judgekit.render.text import clipped
from judgekit.search.choice import (
    COOKIE,
    MAX_AGE,
    Choice,
    choices,
    is_both,
    parse_choice,
    safe_next,
    with_choice,
    without_edition,
    yields_to_question,
)
from judgekit.search.elsewhere import elsewhere
from judgekit.search.service import SearchParamError, SearchService
from judgekit.shapes.search_notes import BOX_CHARS, CHIP_KINDS, cut_question, page_notes
from judgekit.web.context import current_library as library
from judgekit.web.context import current_search, search_answer
from judgekit.web.pagekey import page_address

bp = Blueprint("search", __name__)
# The search box's limit (every page's) and the words a result's chips name kinds by.
bp.add_app_template_global(BOX_CHARS, "box_chars")
bp.add_app_template_global(CHIP_KINDS, "chip_kinds")

FILTERS = ("edition", "document", "version", "kind")
EXAMPLES = (
    "how many dilemmas do I draw",
    "beam personnel",
    "attempting missions",
    "commandeer a ship",
    "all personnel stopped",
)
# Hints for a judge of one game: each has results in that game (1E has no dilemma piles).
EXAMPLES_BY_EDITION = {
    "2E": (
        "how many dilemmas do I draw",
        "beam personnel",
        "attempting missions",
        "all personnel stopped",
        "headquarters",
    ),
    "1E": ("commandeer a ship", "seed phase", "beam personnel", "stopped personnel", "download"),
}


def examples(edition: str) -> tuple[str, ...]:
    """The example searches to offer: the chosen game's, or a mix of both games'."""
    return EXAMPLES_BY_EDITION.get(edition.upper(), EXAMPLES)


# The longest address a page hands to the edition form to come back to (a long search's address
# returns to its path): an error page for a long address must not echo it.
MAX_RETURN_CHARS = 2048


@bp.app_template_global("return_path")
def return_path() -> str:
    """Where choosing a game comes back to: this page's address (with the parameters it read),
    its path if that is long, else home."""
    here = page_address()
    for path in (here, request.path):
        if len(path) <= MAX_RETURN_CHARS:
            return path
    return "/"


def judging() -> Choice | None:
    """The edition this device remembers (the cookie), or None."""
    return parse_choice(library().corpus, request.cookies.get(COOKIE))


@bp.app_context_processor
def _judging() -> dict[str, Any]:
    # Every page's search box shows the remembered edition as a chip.
    return {"judging": judging()}


def _form(
    svc: SearchService, params: dict[str, str], yielded: Choice | None = None
) -> dict[str, Any]:
    """What the filter form offers and what the judge chose in the URL (never the cookie's)."""
    lib = library()
    aside_params = {
        name: value
        for name in ("kind", "all_versions")
        if (value := request.args.get(name, "").strip()) not in ("", "0")
    }
    docs = list(lib.corpus.held())
    # The form shows the URL's filters only: the remembered game applies on its own, so copying
    # it into the form would turn it into a filter that clearing the chip cannot remove.
    chosen = {name: request.args.get(name, "").strip() for name in FILTERS}
    both = is_both(chosen["edition"])
    return {
        "q": params.get("q", ""),
        "chosen": chosen,
        "both": both,
        "all_versions": params.get("all_versions", "") not in ("", "0", "false", "no", "off"),
        "editions": sorted({d.edition for d in docs}, reverse=True),
        "documents": [{"id": d.id, "title": d.short_title} for d in docs],
        "versions": [
            {"document": d.short_title, "versions": [(v.id, v.short_title) for v in d.versions]}
            for d in docs
        ],
        "kinds": list(svc.kinds),
        "filtered": any(value and not is_both(value) for value in chosen.values()),
        # Links keep what the URL said (edition=both too), not the remembered choice: clearing
        # the chip must change every link.
        "params": {
            name: value
            for name in (*FILTERS, "all_versions")
            if (value := request.args.get(name, "").strip()) not in ("", "0")
        },
        "examples": examples(params.get("edition", "")),
        "choices": choices(lib.corpus),
        # A remembered game wins over one named in the question ("1e battle"): its "search both
        # games" link searches the words without the name, or edition=both would let the named
        # game apply and give that game only.
        "unnamed": svc.index.unnamed(params.get("q", "")),
        # The link to a game the question named but a chosen one set aside: that game, whatever
        # this device remembers, with the URL's kind and all_versions (a document or version
        # chosen is the other game's).
        "aside_params": aside_params,
        # The remembered game the question's game or version won over, and the link searching
        # it instead (in the address, so that it wins over the question).
        "yielded": yielded,
        "yielded_params": {
            **aside_params,
            **(
                {
                    "edition": yielded.edition,
                    **({"version": yielded.version} if yielded.version else {}),
                }
                if yielded
                else {}
            ),
        },
        "from_cookie": judging() is not None
        and not any(
            request.args.get(name, "").strip() for name in ("edition", "document", "version")
        ),
    }


def _yielded(svc: SearchService) -> Choice | None:
    """The remembered game when the question names another game or a version, which wins over
    it (a game chosen in the address still wins over the question)."""
    choice = judging()
    typed = cut_question(request.args.get("q") or "")[0]
    chosen = any(request.args.get(name, "").strip() for name in ("edition", "document", "version"))
    if choice is None or chosen or not typed.strip():
        return None
    return choice if yields_to_question(choice, *svc.index.named_in(typed)) else None


def _run(template: str):
    svc = current_search()
    yielded = _yielded(svc)
    params = with_choice(request.args, judging(), yields=yielded is not None)
    # The page searches a long question's first characters and says so (page_notes); the API
    # refuses it. Cut before anything reads it: a long question costs no more than the limit.
    asked = params.get("q", "")
    if "q" in params:
        params["q"] = cut_question(asked)[0]
    data, error, other = None, None, None
    try:
        data = search_answer(params)
        other = elsewhere(svc, data)
    except SearchParamError as exc:
        error = str(exc)
    return render_template(
        template,
        data=data,
        error=error,
        elsewhere=other,
        notes=page_notes(library(), svc.index.versions, data, asked),
        form=_form(svc, params, yielded if data else None),
        compact=request.args.get("compact") == "1",
    ), (400 if error else 200)


@bp.get("/search")
def search() -> ResponseReturnValue:
    """GET /search."""
    return _run("search/page.html")


@bp.get("/search/results")
def results() -> ResponseReturnValue:
    """The results list alone: what search.js swaps in as the judge types."""
    return _run("search/_results.html")


@bp.get("/search/edition")
def edition() -> ResponseReturnValue:
    """Remember (or, with an empty choice, forget) the game this device judges; go back.

    A GET, like a language switch: a link or a plain form sets it without JavaScript, and all
    it changes is this device's own preference.
    """
    value = request.args.get("choice", "")
    choice = parse_choice(library().corpus, value)
    if value.strip() and choice is None:
        return render_template(
            "search/edition_error.html", value=clipped(value, 80), choices=choices(library().corpus)
        ), 400
    target = safe_next(request.args.get("next"))
    # Clearing goes back to both games: an edition the form put in the URL would keep one.
    response = redirect(without_edition(target) if choice is None else target, code=303)
    if choice is None:
        response.delete_cookie(COOKIE, path="/")
    else:
        response.set_cookie(
            COOKIE, choice.value, max_age=MAX_AGE, path="/", samesite="Lax", httponly=True
        )
    return response
