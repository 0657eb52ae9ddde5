"""The reading pages over the real corpus: every page renders, every link resolves, all local."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from judgekit import create_app

VERSIONS = [
    ("2e-rulebook", "1.1"),
    ("2e-rulebook", "call-to-arms"),
    ("2e-rulebook", "4"),
    ("1e-current-rulings", "2000-02-28"),
]
# The other areas' pages, which reading pages link into.
OTHER_AREAS = ("/search", "/diff", "/timing", "/history/")
# A download, not a page (binary, 202 while it is built): tests/test_pack_serve.py.
DOWNLOADS = ("/pack.zip",)
HREF_RE = re.compile(r'<a\b[^>]*\shref="([^"]*)"')
ASSET_RE = re.compile(
    r'<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\s(?:src|href|data)="([^"]*)"'
)
ID_RE = re.compile(r'\sid="([^"]+)"')
STATIC = Path(__file__).resolve().parent.parent / "judgekit" / "static"


def held(lib, document: str, version: str):
    found = lib.corpus.version(document, version)
    assert found is not None, f"{document} {version} is not in the corpus"
    return found


@pytest.fixture(scope="module")
def pages(app) -> dict[str, str]:
    """Every reading page of the real corpus, rendered once: URL -> HTML."""
    client = app.test_client()
    lib = app.extensions["judgekit"]["library"]
    urls = ["/"]
    for version in lib.corpus.versions():
        urls.append(lib.version_url(version))
        urls.extend(lib.entry_url(e) for e in version.walk())
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        out[url] = response.get_data(as_text=True)
    return out


@pytest.mark.parametrize(("document", "version"), VERSIONS)
def test_every_entry_page_renders(app, pages, document, version):
    lib = app.extensions["judgekit"]["library"]
    found = held(lib, document, version)
    assert lib.version_url(found) in pages
    for entry in found.walk():
        html = pages[lib.entry_url(entry)]
        title = entry.title.replace("&", "&amp;").replace('"', "&#34;").replace("'", "&#39;")
        title = title.replace("<", "&lt;").replace(">", "&gt;")
        assert f"<h1>{title}</h1>" in html, entry.id
        assert 'class="citation"' in html and 'id="jk-other-versions"' in html


def _split(url: str, base: str) -> tuple[str, str]:
    if url.startswith("#"):
        return base, url[1:]
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else ""), parts.fragment


def _internal_links(pages: dict[str, str]):
    for url, html in pages.items():
        for href in HREF_RE.findall(html):
            href = href.replace("&amp;", "&")
            host = urlsplit(href).netloc
            if host and host != "localhost":
                continue  # only the permalink is absolute, and it names the request host
            if href.startswith("mailto:"):
                continue
            yield url, href


def test_every_internal_link_resolves(app, pages):
    client = app.test_client()
    status: dict[str, int] = {u: 200 for u in pages}
    targets: dict[str, str] = dict(pages)
    broken = []
    for page_url, href in _internal_links(pages):
        path, fragment = _split(href, page_url)
        if path.startswith(OTHER_AREAS):
            continue  # test_links_into_other_areas
        if path in DOWNLOADS:
            continue
        if path not in status:
            response = client.get(path, follow_redirects=True)
            status[path] = response.status_code
            targets[path] = response.get_data(as_text=True)
        if status[path] != 200:
            broken.append((page_url, href, status[path]))
        elif fragment and f'id="{fragment}"' not in targets[path]:
            broken.append((page_url, href, "no such anchor"))
    assert broken == []


@pytest.mark.parametrize("area", OTHER_AREAS)
def test_links_into_other_areas(app, pages, area):
    client = app.test_client()
    seen: dict[str, int] = {}
    for page_url, href in _internal_links(pages):
        path, _ = _split(href, page_url)
        if path.startswith(area) and path not in seen:
            seen[path] = client.get(path, follow_redirects=True).status_code
    assert seen, f"no page links into {area}"
    assert {p: s for p, s in seen.items() if s != 200} == {}


def test_every_page_uses_local_assets_only(app, pages):
    client = app.test_client()
    assets: set[str] = set()
    for url, html in pages.items():
        for src in ASSET_RE.findall(html):
            assert src.startswith("/") and not src.startswith("//"), (url, src)
            assets.add(src)
        assert "url(http" not in html and "@import" not in html, url
    # Content-hashed names: /static/js/judgekit.<10 hex digits>.js
    assert any(re.fullmatch(r"/static/js/judgekit\.[0-9a-f]{10}\.js", a) for a in assets), assets
    assert any(re.fullmatch(r"/static/css/judgekit\.[0-9a-f]{10}\.css", a) for a in assets)
    for src in assets:
        assert client.get(src).status_code == 200, src
    for css in STATIC.rglob("*.css"):
        text = css.read_text()
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), css
        assert not re.search(r"@import\s+(url\()?['\"]?(https?:)?//", text), css


def test_every_page_has_unique_ids(pages):
    dupes = {}
    for url, html in pages.items():
        ids = ID_RE.findall(html)
        extra = sorted({i for i in ids if ids.count(i) > 1})
        if extra:
            dupes[url] = extra
    assert dupes == {}


def test_home_marks_the_newest_versions_held(pages, lib):
    html = pages["/"]
    for doc in lib.corpus.held():
        assert f'id="doc-{doc.id}"' in html
        for version in doc.versions:
            assert f'<a href="{lib.version_url(version)}">' in html
    assert html.count('<span class="badge badge-newest-held"') == len(list(lib.corpus.held()))
    assert ">Newest held here (April 2015)</span>" in html
    assert ">Newest held here (2/28/00); later versions exist, not held here</span>" in html


def test_citation_of_a_glossary_entry(lib):
    held(lib, "2e-rulebook", "4")
    app = create_app({"TESTING": True, "BASE_URL": "http://10.0.0.5:8000"})
    url = "/rules/2e-rulebook/4/gl-attempting-missions"
    # The citation's address is the configured one, whatever Host the request names.
    html = app.test_client().get(url, base_url="http://evil.example").get_data(as_text=True)
    assert (
        'data-citation="2E Rulebook v4 (April 2015), Glossary – attempting missions, '
        "pp. 15–20\n"
        f'http://10.0.0.5:8000{url}"'
    ) in html


def test_version_4_links_its_glossary_terms(pages, lib):
    version = held(lib, "2e-rulebook", "4")
    terms = {e.id for e in lib.glossary(version)}
    assert {"gl-attempting-missions", "gl-playing-a-card"} <= terms
    linked = set()
    for entry in version.walk():
        linked |= set(re.findall(r'data-gloss="([^"]+)"', pages[lib.entry_url(entry)]))
    # Card names share the pop-up links (data-gloss="card-2e-…"); the rest are glossary terms.
    cards = {x for x in linked if x.startswith(("card-2e-", "cards-"))}
    assert "card-2e-uss-galaxy" in cards
    linked -= cards
    assert linked <= terms
    assert len(linked) > len(terms) // 2, "most glossary terms are used somewhere"
    page_html = pages[lib.version_url(version)]
    assert 'class="gloss ed-link" href="#gl-' in page_html


def test_beaming_across_versions(pages, lib):
    held(lib, "2e-rulebook", "1.1")
    four = held(lib, "2e-rulebook", "4")
    html = pages["/rules/2e-rulebook/1.1/beaming"]
    title = four.get("beaming").title
    assert f'<a href="/rules/2e-rulebook/4/beaming" data-version-link="4">{title}</a>' in html
    assert 'href="/history/2e-rulebook/beaming"' in html


def test_current_rulings_page(pages, lib):
    version = held(lib, "1e-current-rulings", "2000-02-28")
    html = pages[lib.version_url(version)]
    sections = re.findall(r'<section id="([^"]+)" class="([^"]+)"', html)
    kinds = [version.get(sid).kind for sid, _ in sections]
    first_ruling = kinds.index("ruling")
    summary = [sid for sid, _ in sections[:first_ruling] if "significant" in sid]
    assert summary, "the significant-changes summary comes before the rulings"
    rulings = [e for e in version.walk() if e.kind == "ruling"]
    new = [sid for sid, cls in sections if "is-new" in cls]
    assert new == [e.id for e in rulings if e.new] and new
    assert html.count("* New/changed</span>") == len(new)
    # "See" references are links; references to documents we do not hold say so
    assert 'class="ref" href="/rulings/1e-current-rulings/2000-02-28/' in html
    assert html.count('class="ref-external"') == html.count('class="not-held"') > 0
    assert "1E Glossary 1.6 – not in judgekit]" in html


def test_every_icon_shape_is_drawn_by_css(corpus):
    css = (STATIC / "css" / "judgekit.css").read_text()
    shapes = {icon.shape for icon in corpus.icons.values()}
    assert shapes <= {"star", "square", "circle", "diamond", "triangle", "hexagon"}
    for shape in shapes:
        assert f".icon-{shape}::before" in css, shape
    # the badge keeps its label as text, and its shape prints (a border, not a background)
    assert "border: .42em solid currentColor" in css
