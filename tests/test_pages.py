"""Pages a judge can write down (issue #29): each citation gives the entry's page, its range, or
"in <section>, p. N"; a page the editors read is marked "ed." with its evidence; printed references
say where they pointed; `judgekit check` refuses a page that contradicts the contents' order."""

from __future__ import annotations

import shutil

import pytest

from judgekit import create_app
from judgekit.checks.loader import load_corpus
from judgekit.checks.validate import run_check
from judgekit.render.library import Library

from .conftest import DATA, SEEDS

PAGES = DATA / "pages"
FAULTS = DATA / "pages_faults"
ED = '<abbr class="tm-ed-mark" title="'


@pytest.fixture(scope="module")
def plib() -> Library:
    return Library(load_corpus(PAGES))


@pytest.fixture(scope="module")
def pc():
    return create_app({"TESTING": True, "CORPUS_DIR": str(PAGES)}).test_client()


def _cite(lib: Library, entry_id: str) -> tuple[str, str]:
    entry = lib.corpus.entry("book", "4", entry_id)
    return lib.citation_title(entry), lib.citation_short(entry)


@pytest.mark.parametrize(
    ("entry_id", "full", "short"),
    [
        # a page the contents print
        ("introduction", "2E Book v4 (April 2015), Introduction, p. 2", "2E v4 p. 2, Introduction"),
        # a range the sources bound it to, never the section's first page as its own
        (
            "beaming",
            "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, pp. 8–9",
            "2E v4 pp. 8–9, Order – Beam Personnel",
        ),
        # a page a printed page number shows
        (
            "attempting",
            "2E Book v4 (April 2015), 2. Execute Orders – Attempting a Mission, p. 10",
            "2E v4 p. 10, Attempting a Mission",
        ),
        # nothing bounds it: its section's page, said with "in", after the title
        (
            "gl-range",
            "2E Book v4 (April 2015), Glossary – Range, in Glossary, p. 15",
            "2E v4, Range, in Glossary, p. 15",
        ),
    ],
)
def test_citations_give_the_entry_s_page_its_range_or_its_section_s(plib, entry_id, full, short):
    assert _cite(plib, entry_id) == (full, short)


def test_the_json_gives_the_page_its_basis_and_evidence(pc):
    beaming = pc.get("/api/entries/book/4/beaming").get_json()
    page = beaming["printed_page"]
    assert (page["page"], page["first"], page["last"], page["text"]) == (None, 8, 9, "pp. 8–9")
    assert page["own"] is True and page["basis"] == "bounds"
    assert page["page_editorial"].startswith("The editors' reading")
    assert [(e["source_label"], e["line"], e["shows"]) for e in page["evidence"]] == [
        ("book4.txt", 3, "2. EXECUTE ORDERS 8"),
        ("book4.txt", 11, "9"),
    ]
    assert (beaming["page"], beaming["pages"]) == (None, "pp. 8–9")
    intro = pc.get("/api/entries/book/4/introduction").get_json()
    assert intro["printed_page"]["page"] == 2 and intro["printed_page"]["page_editorial"] is None
    assert (intro["page"], intro["pages"], intro["page_editorial"]) == (2, "p. 2", None)
    term = pc.get("/api/entries/book/4/gl-range").get_json()
    assert term["printed_page"]["own"] is False and term["pages"] is None


def test_a_page_the_editors_read_is_marked_on_its_page_and_a_printed_one_is_not(pc):
    read = pc.get("/rules/book/4/attempting").get_data(as_text=True)
    assert f"Attempting a Mission, p. 10</span> {ED}The editors&#39; reading" in read
    assert "In the printed book: its heading is on p. 10 " + ED in read
    assert "Source book4.txt, line 15, shows <q>10</q>: the page number 10 follows its heading" in (
        read
    )
    ranged = pc.get("/rules/book/4/beaming").get_data(as_text=True)
    assert "In the printed book: its heading is on one of pp. 8–9 " + ED in ranged
    term = pc.get("/rules/book/4/gl-range").get_data(as_text=True)
    assert (
        'In the printed book: in <a href="/rules/book/4/glossary">Glossary</a>, whose heading is '
        "on p. 15, because:</p>" in term
    )
    printed = pc.get("/rules/book/4/introduction").get_data(as_text=True)
    assert "Introduction, p. 2</span><br>" in printed
    assert "In the printed book: its heading is on p. 2, because:</p>" in printed
    # the version page lists each entry's own page, the editors' marked
    whole = pc.get("/rules/book/4/").get_data(as_text=True)
    assert f'<span class="page-ref">pp. 8–9</span> {ED}' in whole
    assert '<span class="page-ref">p. 2</span></h2>' in whole


def test_printed_references_say_where_they_pointed_marked_as_the_editors(pc):
    intro = pc.get("/api/entries/book/4/introduction").get_json()
    (ref,) = intro["printed_references"]
    assert ref["target"] == {"title": "Using Range", "url": "/rules/book/4/using-range"}
    assert ref["reference_editorial"].startswith("The editors' explanation")
    html = pc.get("/rules/book/4/introduction").get_data(as_text=True)
    assert (
        f"<q>Read more about ships on page 10.</q> {ED}The editors&#39; explanation" in html
        and 'Here: <a href="/rules/book/4/using-range">Using Range</a>.' in html
    )
    beaming = pc.get("/api/entries/book/4/beaming").get_json()
    assert beaming["printed_references"][0]["target"] is None
    assert "it is not held here" in pc.get("/rules/book/4/beaming").get_data(as_text=True)


def test_the_paged_fixture_passes_check():
    assert run_check(PAGES, PAGES / "seeds") == []


def test_check_refuses_pages_that_contradict_the_contents_with_file_and_line():
    found = {p.replace(str(FAULTS) + "/", "") for p in run_check(FAULTS, PAGES / "seeds")}
    pages, book = "rules/book/4.pages.yaml", "rules/book/4.yaml"
    assert found == {
        f"{pages}:5: 'INTRODUCTION 3' is not at book4.txt:2",
        f"{book}:16: contents line 'GLOSSARY' p. 9 is lower than 'Using Range' p. 10, "
        "printed before it",
        f"{pages}:15: 'beaming' on pp. 8-12 is after 'Glossary', p. 9 by the contents, "
        "which comes after it",
        f"{pages}:21: 'attempting' on p. 7 is before 'Using Range', p. 10 by the contents, "
        "which comes before it",
        f"{pages}:21: 'attempting' on p. 7 is lower than 'execute-orders' (p. 8 at the least), "
        "printed before it",
        f"{pages}:26: 'glossary' is on p. 15 here but the contents print p. 9 for it",
        f"{book}:34: 'using-range' has no page recorded with its evidence in 4.pages.yaml",
        f"{book}:48: 'gl-range' on p. 12 is lower than 'glossary' (p. 15 at the least), "
        "printed before it",
        f"{book}:48: 'gl-range' has no page recorded with its evidence in 4.pages.yaml",
        f"{pages}:32: target 'nowhere': dangling reference 'nowhere': no entry 'nowhere' in book 4",
        f"{pages}:36: 'see the figure' is not in the text of 'beaming'",
    }


# -- the real corpus --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> Library:
    return Library(load_corpus())


@pytest.mark.parametrize(
    ("version", "entry_id", "short"),
    [
        # the nine the contents' order proved wrong: each was its section's first page
        ("call-to-arms", "equipment", "2E Call to Arms pp. 3–5, Equipment"),
        ("call-to-arms", "event", "2E Call to Arms pp. 3–5, Event"),
        ("call-to-arms", "interrupt", "2E Call to Arms pp. 5–7, Interrupt"),
        ("call-to-arms", "mission", "2E Call to Arms pp. 5–7, Mission"),
        ("call-to-arms", "showing-your-cards", "2E Call to Arms p. 13, Showing Your Cards"),
        ("call-to-arms", "attempting-a-mission", "2E Call to Arms p. 16, Attempting a Mission"),
        ("call-to-arms", "facing-dilemmas", "2E Call to Arms pp. 16–17, Facing dilemmas"),
        ("call-to-arms", "other-order-actions", "2E Call to Arms pp. 20–21, Other Order Actions"),
        (
            "call-to-arms",
            "discard-excess-cards",
            "2E Call to Arms pp. 20–21, 3. Discard Excess Cards",
        ),
        ("4", "gl-all", "2E v4 pp. 15–20, all"),
        ("4", "building-a-deck", "2E v4 p. 13, Building a Deck"),
        ("4", "decipher", "2E v4, Decipher, in Credits, p. 20"),
        ("1.1", "beaming", "2E v1.1, Beaming"),
    ],
)
def test_real_citations(real, version, entry_id, short):
    assert real.citation_short(real.corpus.entry("2e-rulebook", version, entry_id)) == short


def test_every_2e_page_shown_is_recorded_with_evidence(real):
    for version_id in ("call-to-arms", "4"):
        version = real.corpus.version("2e-rulebook", version_id)
        for entry in version.walk():
            where = real.printed_page(entry)
            assert where is not None, entry.id
            if where.own:
                assert version.pages[entry.id].evidence, entry.id
            else:  # only entries nothing bounds: after the last page the contents print
                assert entry.parent == "credits" and version_id == "4", entry.id
    assert not real.corpus.version("2e-rulebook", "1.1").pages
    rulings = real.corpus.version("1e-current-rulings", "2000-02-28")
    assert all(real.printed_page(e) is None for e in rulings.walk())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="needs the seed texts")
def test_the_real_pages_and_references_pass_their_checks():
    from judgekit.corpus.pages_check import page_problems

    assert page_problems(load_corpus(), SEEDS) == []


def test_a_pages_file_s_format_is_refused_with_file_and_line(tmp_path):
    root = tmp_path / "corpus"
    shutil.copytree(PAGES, root)
    path = root / "rules" / "book" / "4.pages.yaml"
    text = path.read_text("utf-8").replace('version: "4"', 'version: "5"')
    text = text.replace("    page: 2\n", '    page: 2\n    pages: "2-3"\n', 1)
    text = text.replace("  - entry: using-range", "  - entry: attempting", 1)
    text = text.replace('pages: "8-9"', 'pages: "8-8"')  # one page is 'page'
    path.write_text(text, "utf-8")
    found = {p.replace(str(root) + "/", "") for p in run_check(root, PAGES / "seeds")}
    where = "rules/book/4.pages.yaml"
    assert found == {
        f"{where}:1: the pages file must name 'book' version '4'",
        f"{where}:5: a page place gives one of 'page' and 'pages'",  # both
        f"{where}:17: field 'pages' must run from a lower page to a higher one, not '8-8'",
        f"{where}:16: a page place gives one of 'page' and 'pages'",  # the bad range read as none
        f"{where}:27: entry 'attempting' has two page places",
    }
