"""Glossary-term linking on sanitized HTML, and the 'not held' labels, on tiny inputs."""

from __future__ import annotations

from html import escape

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.glossary import (
    GlossaryLinker,
    Term,
    entry_html,
    label_external_refs,
    version_html,
)
from judgekit.render.library import Library

from .conftest import DATA

READING = DATA / "reading"

TERMS = [
    Term("gl-attempting-missions", "attempting missions", ("attempting missions",), "/g/am"),
    Term("gl-missions", "missions", ("missions", "mission"), "/g/m"),
    Term("gl-playing-a-card", "playing a card", ("playing a card", "plays a card"), "/g/p"),
    Term("gl-range", "Range", ("Range",), "/g/r"),
    Term("gl-aligned", "aligned", ("aligned",), "/g/a"),
    Term("gl-qs", "Q's Tent", ("Q's Tent",), "/g/q"),
]


@pytest.fixture(scope="module")
def linker() -> GlossaryLinker:
    return GlossaryLinker(TERMS)


def link(term_id: str, words: str) -> str:
    term = next(t for t in TERMS if t.entry_id == term_id)
    return (
        f'<a class="gloss ed-link" href="{term.href}" data-gloss="{term_id}" '
        f'title="{escape("Glossary: " + term.title + " (link added by the editors)")}">{words}</a>'
    )


@pytest.mark.parametrize(
    ("fragment", "expected", "ids"),
    [
        # first occurrence only, case-insensitive, the longest phrase wins at a position
        (
            "<p>Attempting missions first; attempting missions again; missions.</p>",
            f"<p>{link('gl-attempting-missions', 'Attempting missions')} first; "
            f"attempting missions again; {link('gl-missions', 'missions')}.</p>",
            ["gl-attempting-missions", "gl-missions"],
        ),
        # an alias links its entry, and the entry is then done for the page
        (
            "<p>A mission, then missions.</p>",
            f"<p>A {link('gl-missions', 'mission')}, then missions.</p>",
            ["gl-missions"],
        ),
        # word boundaries: no match inside words or hyphenated words
        (
            "<p>ranged, long-range, Non-aligned, RANGE</p>",
            f"<p>ranged, long-range, Non-aligned, {link('gl-range', 'RANGE')}</p>",
            ["gl-range"],
        ),
        # words of a term may wrap onto the next line
        (
            "<p>He plays\na card.</p>",
            f"<p>He {link('gl-playing-a-card', 'plays' + chr(10) + 'a card')}.</p>",
            ["gl-playing-a-card"],
        ),
        # typographic apostrophes match straight ones
        (
            "<p>Q\u2019s Tent is a card.</p>",
            f"<p>{link('gl-qs', 'Q' + chr(0x2019) + 's Tent')} is a card.</p>",
            ["gl-qs"],
        ),
        # never inside links, code, icon badges or 'not held' references
        (
            '<p><a class="ref" href="/x">missions</a> <code>range</code> '
            '<span class="icon icon-star" role="img" aria-label="Range">Range</span> '
            '<span class="ref-external" title="t">aligned</span></p>',
            '<p><a class="ref" href="/x">missions</a> <code>range</code> '
            '<span class="icon icon-star" role="img" aria-label="Range">Range</span> '
            '<span class="ref-external" title="t">aligned</span></p>',
            [],
        ),
        # text after a skipped element is linked again; emphasis is not skipped
        (
            '<p><a href="/x">range</a> and <em>range</em></p>',
            f'<p><a href="/x">range</a> and <em>{link("gl-range", "range")}</em></p>',
            ["gl-range"],
        ),
        # entities stay escaped, quoted '>' in an attribute does not end the tag
        (
            '<p title="a > range">AT&amp;T &lt;range&gt; mission</p>',
            f'<p title="a > range">AT&amp;T &lt;{link("gl-range", "range")}&gt; '
            f"{link('gl-missions', 'mission')}</p>",
            ["gl-range", "gl-missions"],
        ),
        # void elements do not open a scope
        (
            "<p>one<br>range</p>",
            f"<p>one<br>{link('gl-range', 'range')}</p>",
            ["gl-range"],
        ),
    ],
)
def test_link_first_occurrences(linker, fragment, expected, ids):
    html, linked = linker.link(fragment)
    assert html == expected
    assert linked == ids


def test_an_entry_never_links_to_itself(linker):
    html, linked = linker.link("<p>Range is range.</p>", exclude="gl-range")
    assert html == "<p>Range is range.</p>"
    assert linked == []


def test_linked_ids_carry_across_calls(linker):
    seen: list[str] = []
    linker.link("<p>range</p>", linked=seen)
    html, linked = linker.link("<p>range and mission</p>", linked=seen)
    assert html == f"<p>range and {link('gl-missions', 'mission')}</p>"
    assert linked == ["gl-range", "gl-missions"]


def test_no_terms_no_change():
    empty = GlossaryLinker([])
    assert not empty
    assert empty.link("<p>range</p>") == ("<p>range</p>", [])


def test_terms_are_escaped_in_the_link():
    odd = GlossaryLinker([Term("gl-x", 'a "quoted" <term>', ("x&y",), '/g/"x"')])
    html, _ = odd.link("<p>x&amp;y</p>")
    assert html == (
        '<p><a class="gloss ed-link" href="/g/&quot;x&quot;" data-gloss="gl-x" '
        'title="Glossary: a &quot;quoted&quot; &lt;term&gt; (link added by the editors)">x&amp;y</a></p>'
    )


def test_label_external_refs():
    fragment = (
        '<p>See <span class="ref-external" title="1E Glossary 1.6 (not held in judgekit)">'
        "<em>cumulative</em></span>.</p>"
    )
    assert label_external_refs(fragment) == (
        '<p>See <span class="ref-external" title="1E Glossary 1.6 (not held in judgekit)">'
        '<em>cumulative</em></span><span class="not-held"> [1E Glossary 1.6 – not in judgekit]'
        "</span>.</p>"
    )


@pytest.fixture(scope="module")
def reading_lib() -> Library:
    return Library(load_corpus(READING))


def test_entry_html_links_the_versions_terms(reading_lib):
    entry = reading_lib.corpus.entry("demo-book", "1", "introduction")
    html, linked = entry_html(reading_lib, entry)
    assert linked == (
        "gl-attempting-missions",
        "gl-missions",
        "gl-playing-a-card",
        "gl-range",
        "gl-aligned",
    )
    assert (
        '<a class="gloss ed-link" href="/rules/demo-book/1/gl-attempting-missions" '
        'data-gloss="gl-attempting-missions" title="Glossary: attempting missions (link added by the editors)">'
        "Attempting missions</a> wins the game." in html
    )
    # icon labels ("Dual mission") are not linked; "aligned" in "Non-aligned" is not either
    assert "Dual mission</span>" in html and "Non-aligned personnel" in html
    assert entry_html(reading_lib, entry)[0] is html  # cached


def test_entry_html_on_a_glossary_entry_skips_itself(reading_lib):
    entry = reading_lib.corpus.entry("demo-book", "1", "gl-attempting-missions")
    html, linked = entry_html(reading_lib, entry)
    assert linked == ("gl-range",)
    assert html.startswith('<div class="block block-rule"><p>Attempting missions is how')


def test_version_without_glossary_links_nothing(reading_lib):
    entry = reading_lib.corpus.entry("demo-book", "2", "introduction")
    html, linked = entry_html(reading_lib, entry)
    assert linked == () and 'class="gloss ed-link"' not in html


def test_version_html_links_to_in_page_anchors(reading_lib):
    version = reading_lib.corpus.version("demo-book", "1")
    page = version_html(reading_lib, version)
    assert list(page) == list(version.entries)
    assert 'href="#gl-attempting-missions"' in page["introduction"]
    # first occurrence per entry: another entry links the same term again
    assert 'href="#gl-attempting-missions"' not in page["missions-section"]  # it is a ref there
    assert 'href="#gl-missions"' in page["introduction"]
    assert 'href="#gl-missions"' in page["missions-section"]
    assert page["glossary"] == ""
