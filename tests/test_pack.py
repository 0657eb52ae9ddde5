"""The judge pack: where addresses live as files, links made relative, and the build itself."""

from __future__ import annotations

import json
import posixpath
import re
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from judgekit.commands import main
from judgekit.pack.build import MEANING_SCRIPT, NOT_CARRIED, pack_app
from judgekit.pack.compact import (
    compact_citations,
    compact_crumbs,
    compact_item,
    compact_postings,
    compact_shared,
)
from judgekit.pack.paths import (
    canonical,
    pack_file,
    relink,
    relink_html,
    relink_json,
    variant_name,
)
from judgekit.pack.search import search_data, stemmer_script
from judgekit.pack.searchpage import InlineError, data_blocks, data_parts, self_contained
from judgekit.search.analysis import stem_token

PACK_CORPUS = Path(__file__).parent / "data" / "pack"


# -- addresses as files ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("/", "index.html"),
        ("/search", "search/index.html"),
        ("/rules/doc/2/", "rules/doc/2/index.html"),
        ("/rules/doc/2/beaming", "rules/doc/2/beaming/index.html"),
        ("/diff/doc/1..2", "diff/doc/1..2/index.html"),
        ("/api/documents", "api/documents/index.json"),
        ("/static/css/judgekit.0123456789.css", "static/css/judgekit.0123456789.css"),
        ("/sw.js", "sw.js"),
        ("/timing/seq?version=2&step=1.a", "timing/seq/~step=1.a,version=2/index.html"),
        ("/api/timing/seq?version=2", "api/timing/seq/~version=2/index.json"),
        ("/rules/doc/2/a%20b", "rules/doc/2/a b/index.html"),
    ],
)
def test_pack_file(address, expected):
    assert pack_file(address) == expected


def test_variant_name_sorts_and_escapes():
    assert variant_name("") == ""
    assert variant_name("version=2&step=1") == "~step=1,version=2"
    assert variant_name("q=a b/c") == "~q=a~20b~2Fc"


def test_canonical_ignores_query_order():
    assert canonical("/timing/s?version=2&step=3") == canonical("/timing/s?step=3&version=2")


# -- links made relative ----------------------------------------------------------------------------
BUILT = {"/timing/seq?step=3&version=2", "/timing/seq"}


def test_relink_html_attributes():
    html = (
        '<a href="/rules/doc/2/beaming#x">b</a><script src="/static/js/a.1234567890.js"></script>'
        '<form action="/search"></form><template data-url="/rules/doc/2/"></template>'
        '<a href="//other.example/x">o</a><a href="https://example.org/">e</a><a href="#top">t</a>'
    )
    out = relink_html(html, "rules/doc/2/beaming/index.html", BUILT)
    assert out == (
        '<a href="index.html#x">b</a><script src="../../../../static/js/a.1234567890.js"></script>'
        '<form action="../../../../search/index.html"></form>'
        '<template data-url="../index.html"></template>'
        '<a href="//other.example/x">o</a><a href="https://example.org/">e</a><a href="#top">t</a>'
    )


def test_relink_html_query_to_built_variant_or_kept():
    html = '<a href="/timing/seq?version=2&amp;step=3">n</a> <a href="/search?q=beam&amp;kind=rule">s</a>'
    out = relink_html(html, "timing/seq/~step=1,version=2/index.html", BUILT)
    assert out == (
        '<a href="../~step=3,version=2/index.html">n</a> '
        '<a href="../../../search/index.html?q=beam&amp;kind=rule">s</a>'
    )


def test_relink_json_paths_and_html_inside():
    data = {
        "url": "/rules/doc/2/beaming",
        "items": [{"api_url": "/api/entries/doc/2/beaming"}],
        "html": '<p>See <a href="/rules/doc/2/moving">moving</a>.</p>',
        "text": "/ not a path",
        "n": 3,
    }
    out = relink_json(data, "api/entries/doc/2/beaming/index.json", set())
    assert out == {
        "url": "../../../../../rules/doc/2/beaming/index.html",
        "items": [{"api_url": "index.json"}],
        "html": '<p>See <a href="../../../../../rules/doc/2/moving/index.html">moving</a>.</p>',
        "text": "/ not a path",
        "n": 3,
    }
    assert json.loads(relink(json.dumps(data), "api/x/index.json", set(), json_answer=True))[
        "url"
    ] == ("../../rules/doc/2/beaming/index.html")


# -- the build ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def built(packs):
    return packs(PACK_CORPUS, "https://judges.example/pack", zipped=True).result


def _links(html: str) -> list[str]:
    # Not the text of an inline script (the search page's: pack/searchpage.py), which is code.
    html = re.sub(r"(<script\b[^>]*>).*?(</script>)", r"\1\2", html, flags=re.S)
    return re.findall(r'\s(?:href|src|action|data-url|data-src)="([^"]*)"', html)


def test_build_writes_every_page_kind(built):
    out = built.out
    for name in (
        "index.html",
        "search/index.html",
        "rules/demo-rulebook/2/index.html",
        "rules/demo-rulebook/2/attempting/index.html",
        "rulings/demo-rulings/r1/index.html",
        "rulings/demo-rulings/r1/access-denied/index.html",
        "diff/index.html",
        "diff/demo-rulebook/1..2/index.html",
        "diff/demo-rulebook/2..1/index.html",
        "diff/demo-rulings/r1/new/index.html",
        "history/demo-rulebook/attempting/index.html",
        "timing/index.html",
        "timing/attempt/index.html",
        "timing/attempt/~version=1/index.html",
        "timing/attempt/~step=2,version=1/index.html",
        "api/documents/index.json",
        "api/timing/attempt/~version=1/index.json",
        "manifest.webmanifest",
        "sw.js",
        "pack.json",
    ):
        assert (out / name).is_file(), name


def test_an_older_versions_entry_says_once_what_became_of_it(built):
    """As the server's page: one notice, ending with the link to the pack's comparison."""
    html = (built.out / "rules/demo-rulebook/1/attempting/index.html").read_text(encoding="utf-8")
    before = re.sub(r"\s+", " ", html.split("<article")[0])
    assert before.count('class="notice') == 1
    assert (
        'The newest held, <a href="../../2/attempting/index.html">v2 (April 2015)</a>,'
        " <strong>changed</strong> this rule, now titled “Order – Attempt a Mission”:"
        ' <a href="../../../../diff/demo-rulebook/1..2/index.html#attempting">see what changed,'
        " sentence by sentence</a> </p>"
    ) in before


def test_views_and_comparison_json_are_not_files_of_their_own(built):
    out = built.out
    # A comparison's or history's views are in its one page (test_pack_views.py shows them).
    assert sorted(p.name for p in (out / "diff/demo-rulebook/1..2").iterdir()) == ["index.html"]
    assert not list(out.glob("history/**/~*"))
    # Each comparison's and history's JSON is the server's only; the pairs and * lists are here.
    assert not (out / "api/diff/demo-rulebook/1/2").exists()
    assert not (out / "api/history").exists()
    assert (out / "api/diff/demo-rulebook/index.json").is_file()
    assert (out / "api/diff/demo-rulings/r1/new/index.json").is_file()
    for page in ("diff/demo-rulebook/1..2", "history/demo-rulebook/attempting"):
        html = (out / page / "index.html").read_text(encoding="utf-8")
        assert 'rel="alternate"' not in html
    # Pages whose twin the pack carries still name it.
    html = (out / "diff/demo-rulebook/index.html").read_text(encoding="utf-8")
    assert (
        'rel="alternate" type="application/json" href="../../api/diff/demo-rulebook/index.json"'
        in html
    )


def test_the_newest_version_of_a_sequence_is_its_plain_page_only(built):
    """The stepper's plain page and JSON show the sequence's newest version: ?version=<newest>
    is not written again (the server answers it as the plain one); links to it open the plain
    file with the query kept, where pack.js stays (the page says which version it shows)."""
    out = built.out
    assert not (out / "timing/attempt/~version=2").exists()
    assert not (out / "api/timing/attempt/~version=2").exists()
    assert (out / "timing/attempt/~version=1/index.html").is_file()
    assert (out / "timing/attempt/~step=2,version=2/index.html").is_file()  # steps stay
    plain = (out / "timing/attempt/index.html").read_text(encoding="utf-8")
    assert '<meta name="judgekit-pack-shows" content="version=2">' in plain
    older = (out / "timing/attempt/~version=1/index.html").read_text(encoding="utf-8")
    assert "judgekit-pack-shows" not in older
    listing = (out / "timing/index.html").read_text(encoding="utf-8")
    assert 'href="attempt/index.html?version=2"' in listing  # the plain file, the query kept
    step = (out / "timing/attempt/~step=2,version=2/index.html").read_text(encoding="utf-8")
    assert (
        'rel="alternate" type="application/json" href="../../../api/timing/attempt/index.json?'
        'version=2"' in step
    )


def test_size_by_folder(built):
    assert built.size == sum(built.folders.values())
    assert built.size == sum(p.stat().st_size for p in built.out.rglob("*") if p.is_file())
    assert built.folders["diff"] == sum(
        p.stat().st_size for p in (built.out / "diff").rglob("*") if p.is_file()
    )
    assert not built.over_limit


def test_every_internal_link_names_a_file_in_the_pack(built):
    out = built.out
    missing = []
    for page in out.rglob("*.html"):
        rel_page = page.relative_to(out).as_posix()
        for link in _links(page.read_text(encoding="utf-8")):
            parts = urlsplit(link.replace("&amp;", "&"))
            if parts.scheme or parts.netloc or not parts.path:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel_page), parts.path))
            if not (out / target).is_file():
                missing.append(f"{rel_page} -> {link}")
    assert missing == []


def test_no_absolute_internal_link_left(built):
    for page in built.out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'\s(?:href|src|action|data-url)="/(?!/)', text), page


def test_redirect_page_for_document_address(built):
    text = (built.out / "rules/demo-rulebook/index.html").read_text(encoding="utf-8")
    assert '<meta http-equiv="refresh" content="0; url=2/index.html">' in text
    assert "<script" not in text


@pytest.mark.parametrize(
    ("address", "target"),
    [
        ("rules", "../index.html"),  # the list of what is held
        ("rulings", "../index.html"),
        ("rules/demo-rulebook/2/term", "../glossary/index.html"),  # the version's glossary
        ("diff/demo-rulebook/2", "../1..2/index.html"),  # what it changed from the one before
    ],
)
def test_addresses_cut_short_send_the_reader_on_as_the_server_does(built, address, target):
    """web/partial.py: an address cut short that can mean one page; a static host has no page
    of its own there (a folder without index.html)."""
    text = (built.out / address / "index.html").read_text(encoding="utf-8")
    assert f'<meta http-equiv="refresh" content="0; url={target}">' in text
    assert (built.out / address / target).resolve().is_file()


def test_citations_use_the_base_url(built):
    text = (built.out / "rules/demo-rulebook/2/attempting/index.html").read_text(encoding="utf-8")
    assert "https://judges.example/pack/rules/demo-rulebook/2/attempting" in text


def test_json_answers_are_relinked(built):
    data = json.loads((built.out / "api/documents/index.json").read_text(encoding="utf-8"))
    text = json.dumps(data)
    assert '"/rules/' not in text
    assert "rules/demo-rulebook/2/index.html" in text


def test_version_and_service_worker(built):
    version = json.loads((built.out / "pack.json").read_text(encoding="utf-8"))
    assert version["date"] == "2026-11-23"
    assert version["id"] == built.version["id"]
    assert version["id"].endswith("-20261123070000")
    assert {v["version"] for v in version["versions"]} == {"1", "2", "r1"}
    sw = (built.out / "sw.js").read_text(encoding="utf-8")
    pack = json.loads(sw.split("\n", 1)[0].removeprefix("self.JUDGEKIT_PACK = ").rstrip(";"))
    assert pack["version"]["id"] == version["id"]
    assert "index.html" in pack["files"] and "sw.js" not in pack["files"]
    assert all((built.out / name).is_file() for name in pack["files"])
    page = (built.out / "index.html").read_text(encoding="utf-8")
    assert f'<meta name="judgekit-pack" content="{version["id"]}">' in page
    manifest = json.loads((built.out / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "index.html"
    assert (built.out / manifest["icons"][0]["src"]).is_file()


def test_static_files_keep_their_hashed_names(built):
    assert list((built.out / "static" / "css").glob("cards.??????????.css"))
    # A page names one stylesheet and one script (pack/bundle.py), under content-hashed names.
    page = (built.out / "index.html").read_text(encoding="utf-8")
    css = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    js = re.findall(r'<script src="([^"]+)"', page)
    assert len(css) == 1 and re.fullmatch(r"static/css/pack-bundle\.[0-9a-f]{10}\.css", css[0])
    assert re.fullmatch(r"static/js/theme\.[0-9a-f]{10}\.js", js[0])
    assert len(js) == 2 and re.fullmatch(r"static/js/pack-bundle\.[0-9a-f]{10}\.js", js[1])
    static = Path(__file__).parents[1] / "judgekit" / "static"
    bundle = (built.out / js[1]).read_text(encoding="utf-8")
    parts = [
        (static / "js" / n).read_text(encoding="utf-8").rstrip() for n in ("pack.js", "judgekit.js")
    ]
    assert bundle.index(parts[0]) < bundle.index(parts[1])
    # The pack's search is not in every page's bundle: the search page names it, others load it
    # when first wanted, from the name the page gives.
    search_js = (static / "js" / "pack-search.js").read_text(encoding="utf-8").rstrip()
    assert search_js not in bundle
    wanted = re.findall(r'<meta name="judgekit-pack-search" data-url="([^"]+)">', page)
    assert len(wanted) == 1 and re.fullmatch(r"static/js/pack-search\.[0-9a-f]{10}\.js", wanted[0])
    assert (built.out / wanted[0]).read_text(encoding="utf-8").rstrip() == search_js
    assert "JUDGEKIT_SEARCH" not in page and "search-index.js" not in page
    assert (static / "css" / "pack.css").read_text(encoding="utf-8").rstrip() in (
        (built.out / css[0]).read_text(encoding="utf-8")
    )


def test_every_static_file_carried_is_named_and_none_left_out_is(built):
    """A phone stores every file of the pack: a static file no pack file names is not carried
    (the bundles' parts, the server's own scripts, the stemmer search-more.js carries, search by
    meaning's script in a pack without it), and nothing names one left out."""
    out = built.out
    texts = "\n".join(
        p.read_text(encoding="utf-8")
        for p in out.rglob("*")
        if p.is_file()
        and p.name != "sw.js"
        and p.suffix in (".html", ".js", ".json", ".css", ".webmanifest")
    )
    carried = [p.relative_to(out).as_posix() for p in (out / "static").rglob("*") if p.is_file()]
    notes = [c for c in carried if c.startswith("static/vendor/") and "/index." not in c]
    unnamed = [c for c in carried if c not in notes and posixpath.basename(c) not in texts]
    assert unnamed == []
    assert sorted(notes) == [  # the stemmer's licence and provenance stay with its code's folder
        n for n in sorted(notes) if re.search(r"/(LICENSE|VENDOR)\.", n)
    ]
    static = Path(__file__).parents[1] / "judgekit" / "static"
    for left_out in NOT_CARRIED | {MEANING_SCRIPT}:
        stem, ext = posixpath.splitext(posixpath.basename(left_out))
        hashed = rf"{re.escape(stem)}\.[0-9a-f]{{10}}{re.escape(ext)}"
        assert (static / left_out).is_file(), left_out
        folder = out / "static" / posixpath.dirname(left_out)
        assert not [p for p in folder.glob("*") if re.fullmatch(hashed, p.name)], left_out
        assert not re.search(rf"(?<![\w-]){hashed}\b", texts), left_out
    # The stemmer's code is in search-more.js, verbatim.
    stemmer = (static / "vendor/porter2/index.js").read_text(encoding="utf-8").rstrip()
    assert stemmer in (out / "search-more.js").read_text(encoding="utf-8")


def _inline(html: str, tag: str) -> list[tuple[str, str]]:
    """Each inline element ``tag`` of a page: (its attributes, its text)."""
    return re.findall(rf"<{tag}([^>]*)>(.*?)</{tag}>", html, re.S)


def test_search_page_carries_its_files_and_index(built):
    """The built search page names no file it waits for (pack/searchpage.py): the theme script,
    the stylesheet and the two scripts are inside it, each the very text of its file, in the
    order they ran as files; then the first index file's data, as JSON parts."""
    out = built.out
    html = (out / "search" / "index.html").read_text(encoding="utf-8")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<script src=" not in html and 'rel="stylesheet"' not in html
    # Nothing it waits for: no script or stylesheet named by href= or src= (data-src names the
    # file an inline script is a copy of; pack.js loads pack-search.js by data-url elsewhere).
    code = re.sub(r"(<script\b[^>]*>).*?(</script>)", r"\1\2", html, flags=re.S)
    assert re.findall(r'\s(?:href|src)="[^"]*\.(?:js|css)"', code) == []
    named = re.findall(r'<script src="([^"]+)"', page)
    styles = _inline(html, "style")
    bundle_css = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)[0]
    assert [text.strip() for _, text in styles] == [
        (out / bundle_css).read_text(encoding="utf-8").rstrip()
    ]
    scripts = _inline(html, "script")
    theme = (out / named[0]).read_text(encoding="utf-8").rstrip()
    assert scripts[0] == ("", theme)
    search_js = re.findall(r'data-url="([^"]+)"', page)[0]
    copies = [(attrs, text.strip()) for attrs, text in scripts if "data-src" in attrs]
    assert copies == [
        (f' data-src="../{name}"', (out / name).read_text(encoding="utf-8").rstrip())
        for name in (named[1], search_js)
    ]
    # After the footer: the scripts, then the index (whose parts each script after it parses).
    assert (
        html.index("</footer>") < html.index("data-src=") < html.index('id="judgekit-search-data"')
    )
    assert '<meta name="judgekit-search-data" content="inline">' in html.split("</head>")[0]
    parts = [json.loads(text) for attrs, text in scripts if 'type="application/json"' in attrs]
    joined: dict = {"items": []}
    for part in parts:
        joined["items"] += part.pop("items", [])
        joined.update(part)
    assert len(parts) > 1 and joined == _script_data(out / "search-index.js", "JUDGEKIT_SEARCH")


def test_zip_holds_the_pack(built):
    with zipfile.ZipFile(built.zip_path) as archive:
        names = set(archive.namelist())
    # One top folder, named as the pack's folder: unzipped, the zip gives that folder again.
    top = built.out.name
    assert {name.split("/")[0] for name in names} == {top}
    wanted = {"index.html", "sw.js", "pack.json", "rules/demo-rulebook/2/index.html"}
    assert {f"{top}/{name}" for name in wanted} <= names


def test_cli_build(tmp_path, capsys):
    out = tmp_path / "site"
    base = ["--base-url", "https://judges.example/pack"]
    assert main(["--root", str(PACK_CORPUS), "build", "--out", str(out), "--zip", *base]) == 0
    captured = capsys.readouterr()
    said = captured.out
    assert said.startswith("judge pack ") and f"in {out} (limit 25 MB)\n" in said
    # The size by folder, each as the files on disk add up, the largest first.
    sizes = re.findall(r"^  (\S+)\s+(\d+\.\d\d) MB$", said, re.M)
    diff = sum(p.stat().st_size for p in (out / "diff").rglob("*") if p.is_file())
    assert ("diff/", f"{diff / 1e6:.2f}") in sizes
    assert [float(mb) for _, mb in sizes] == sorted((float(mb) for _, mb in sizes), reverse=True)
    assert "warning" not in captured.err
    assert (tmp_path / "site.zip").is_file()
    entry = out / "rules/demo-rulebook/2/attempting/index.html"
    assert "relative" not in entry.read_text(encoding="utf-8")
    # A second build over a pack replaces it; without --base-url it warns, and the citations it
    # copies say that their address is only a path.
    assert main(["--root", str(PACK_CORPUS), "build", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: no --base-url: citations and permalinks copied from the pack")
    page = entry.read_text(encoding="utf-8")
    assert (
        'data-citation="Demo Rulebook v2 (April 2015), Order – Attempt a Mission\n'
        "/rules/demo-rulebook/2/attempting (a relative address: this copy was built without a "
        'web address)"' in page
    )
    assert "<strong>This link is relative:</strong>" in page


def test_cli_build_refuses_a_folder_that_is_not_a_pack(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["--root", str(PACK_CORPUS), "build", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"--out {tmp_path} is not empty and holds no pack: refusing to empty it\n"
    )
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_cli_build_rejects_a_bad_base_url(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["build", "--out", str(tmp_path / "x"), "--base-url", "ftp://x"])
    assert "must be an http:// or https:// address" in capsys.readouterr().err


def _script_data(path: Path, name: str) -> dict:
    text = path.read_text(encoding="utf-8").split("\n", 1)[0] + "\n"  # the stemmer may follow
    prefix = f"self.{name} = JSON.parse('"
    assert text.startswith(prefix) and text.endswith("');\n")
    quoted = text[len(prefix) : -len("');\n")]
    return json.loads(quoted.replace("\\'", "'").replace("\\\\", "\\"))


def test_search_data_in_two_files(built):
    """The first file answers most questions; the second holds the texts, the speller's list
    and the stems of other English words; together they are the search data, stored offline."""
    app = pack_app(str(PACK_CORPUS))
    with app.test_request_context():
        whole = search_data(app)
    first = _script_data(built.out / "search-index.js", "JUDGEKIT_SEARCH")
    rest = _script_data(built.out / "search-more.js", "JUDGEKIT_SEARCH_MORE")
    assert "text" not in first["items"][0] and "english" in first["judge"]
    assert rest["texts"] == [item["text"] for item in whole["items"]]
    assert rest["english"] == whole["judge"]["english"]
    # Every stem the whole data names, in one file or the other; a word of the first file
    # absent from the whole data (a judge's word) with the server's stem.
    assert {**first["stems"], **rest["stems"]} == {
        **{w: stem_token(w) for w in first["stems"] if w not in whole["stems"]},
        **whole["stems"],
    }
    # Then the stemmer for the words neither holds (pack-search.js: stemOf).
    more = (built.out / "search-more.js").read_text(encoding="utf-8")
    assert more.split("\n", 1)[1] == stemmer_script(Path(app.static_folder))
    assert set(first["stems"]).isdisjoint(rest["stems"])
    words = set(whole["vocabulary"])
    assert {w for w in words if stem_token(w)} <= set(first["stems"])
    pack = json.loads(
        (built.out / "sw.js")
        .read_text(encoding="utf-8")
        .split("\n", 1)[0]
        .removeprefix("self.JUDGEKIT_PACK = ")
        .rstrip(";")
    )
    assert {"search-index.js", "search-more.js"} <= set(pack["files"])


def test_compact_items_and_postings():
    item = {
        "result": {
            "id": "beaming",
            "kind": "section",
            "title": "Beaming",
            "document": "doc",
            "version": "2",
            "url": "rules/doc/2/beaming/index.html",
            "api_url": "api/entries/doc/2/beaming/index.json",
            "breadcrumb": [
                {
                    "id": "orders",
                    "url": "rules/doc/2/orders/index.html",
                    "api_url": "api/entries/doc/2/orders/index.json",
                },
                {
                    "id": "odd",
                    "url": "rules/doc/2/elsewhere/index.html",
                    "api_url": "api/entries/doc/2/odd/index.json",
                },
            ],
        },
        "key": "doc/2/beaming",
        "topic": "doc/section/beaming-lineage",
        "name": "Beaming",
        "text": "Beam personnel.",
        "cites": [],
    }
    item["result"]["citation"] = "Doc v2, Orders – Beaming"
    packed = compact_item(item)
    assert "key" not in packed and "name" not in packed and "text" not in packed
    assert packed["topic"] == "doc/section/beaming-lineage"  # not the usual one: kept
    assert list(packed["result"]) == list(item["result"])  # the answer's keys keep their order
    assert (packed["result"]["url"], packed["result"]["api_url"]) == (0, 0)
    crumbs = packed["result"]["breadcrumb"]
    assert (crumbs[0]["url"], crumbs[0]["api_url"]) == (0, 0)
    assert crumbs[1] == item["result"]["breadcrumb"][1]  # not the usual address: kept
    odd = {"result": {"citation": "Beaming, p. 3", "title": "Beaming"}}
    card = {"result": {"citation": "Card index (2E): A Bad End", "title": "A Bad End"}}
    packed_items = [packed, odd, card]
    assert compact_citations(packed_items) == ["Doc v2, Orders – ", "Card index (2E): "]
    assert [i["result"]["citation"] for i in packed_items] == [0, "Beaming, p. 3", 1]
    assert compact_postings([[3, 1], [4, 1], [10, 1]]) == [3, 1, 6]
    assert compact_postings([[3, 2], [10, 1]]) == [[3, 7], [2, 1]]


def test_shared_fields_and_crumbs_are_written_once():
    """The fields every result of a version shares, and each breadcrumb's sections, are rows of
    tables the items name by number, in their place (pack-search.js: expand puts them back)."""
    shared = {
        "edition": "2E",
        "edition_label": "Second Edition",
        "in_force": True,
        "status": "newest held here (April 2015)",
        "draft": False,
        "document_title": "2E Rulebook",
        "version_title": "v4",
    }
    crumb = {"id": "orders", "kind": "section", "title": "Orders", "url": 0, "api_url": 0}

    def item(n: int, **more) -> dict:
        where = {"id": f"e{n}", "kind": "section", "title": "T", "document": "d", "version": "4"}
        result = {**where, **shared, **more, "citation": 0}
        return {
            "key": "k",
            "topic": "t",
            "name": "n",
            "edition": "2E",
            "current": True,
            "result": result,
        }

    items = [
        item(1, breadcrumb=[crumb]),
        item(2, breadcrumb=[crumb, {"id": "x"}]),
        item(3, status="superseded"),
        {
            **item(4),
            "result": {
                "id": "odd",
                "kind": "card",
                "title": "T",
                "document": "d",
                "version": "",
                "edition": "1E",
            },
        },  # not every field: kept
    ]
    packed = [compact_item(i) for i in items]
    assert all("edition" not in i and "current" not in i for i in packed[:3])
    assert packed[3]["edition"] == "2E" and packed[3]["current"]  # not its result's: kept
    rows = compact_shared(packed)
    assert rows == [
        list(shared.values()),
        [*list(shared.values())[:3], "superseded", False, "2E Rulebook", "v4"],
    ]
    assert list(packed[0]["result"]) == [
        "id",
        "kind",
        "title",
        "document",
        "version",
        "shared",
        "breadcrumb",
        "citation",
    ]
    assert [i["result"].get("shared") for i in packed] == [0, 0, 1, None]
    assert packed[3]["result"] == items[3]["result"]
    crumbs = compact_crumbs(packed)
    assert crumbs == [crumb, {"id": "x"}]
    assert [i["result"].get("breadcrumb") for i in packed] == [[0], [0, 1], None, None]


def test_search_page_data_cannot_end_its_block():
    """No text of the index can end its JSON block or open a comment in it; the parts keep the
    items in order and every other key."""
    data = {"items": [{"t": "</script><!-- a"}, {"t": "b"}], "x": "<\u2028", "y": 1}
    blocks = data_blocks(data)
    assert "</script><" not in blocks.replace("</script>\n<script", "")
    assert '{"items":[{"t":"\\u003c/script>\\u003c!-- a"},{"t":"b"}]}' in blocks
    parts = [
        json.loads(b)
        for b in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', blocks)
    ]
    assert parts == [{"items": data["items"]}, {"x": "<\u2028", "y": 1}]
    # No items: no part of items, the other keys as they are (the join starts from no items).
    assert data_parts({"items": [], "x": 1}) == [{"x": 1}]


def test_search_page_refuses_a_file_that_would_end_its_copy(tmp_path):
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "css").mkdir(parents=True)
    (tmp_path / "static" / "js" / "theme.0123456789.js").write_text("var t;", encoding="utf-8")
    (tmp_path / "static" / "css" / "a.css").write_text("p{}", encoding="utf-8")
    (tmp_path / "static" / "js" / "b.js").write_text('x = "</SCRIPT>";', encoding="utf-8")
    html = (
        '<html><head><script src="../static/js/theme.0123456789.js"></script>\n'
        '<link rel="stylesheet" href="../static/css/a.css">\n'
        '<script src="../static/js/b.js" defer fetchpriority="high"></script>\n'
        "</head><body><p>x</p></body></html>"
    )
    with pytest.raises(InlineError, match=r"^static/js/b\.js: its text would end its inline copy"):
        self_contained(html, tmp_path, {"items": []})
    # The theme script and the stylesheet are refused the same way.
    (tmp_path / "static" / "js" / "b.js").write_text("var b;", encoding="utf-8")
    for name, text, fine in (
        ("js/theme.0123456789.js", "/* <!-- */", "var t;"),
        ("css/a.css", "p{}</Style >", "p{}"),
    ):
        (tmp_path / "static" / name).write_text(text, encoding="utf-8")
        with pytest.raises(InlineError, match=rf"^static/{re.escape(name)}: its text would end"):
            self_contained(html, tmp_path, {"items": []})
        (tmp_path / "static" / name).write_text(fine, encoding="utf-8")
    (tmp_path / "static" / "js" / "b.js").write_text("var b;", encoding="utf-8")
    out = self_contained(html, tmp_path, {"items": []})
    assert out.startswith("<html><head><script>var t;</script>\n<style>\np{}\n</style>\n")
    assert (
        '<script data-src="../static/js/b.js">\nvar b;\n</script>\n<script type="application/json"'
        in out
    )


def test_compact_card_addresses():
    card = {
        "result": {
            "id": "2e.a-bad-end",
            "kind": "card",
            "title": "A Bad End",
            "document": "2e-rulebook",
            "version": "4",
            "url": "cards/2e/a-bad-end/index.html",
            "api_url": "api/cards/2e/a-bad-end/index.json",
        },
        "key": "2e-rulebook/4/2e.a-bad-end",
        "topic": "2e-rulebook/card/2e.a-bad-end",
        "name": "A Bad End",
        "text": "",
        "cites": [],
    }
    assert (compact_item(card)["result"]["url"], compact_item(card)["result"]["api_url"]) == (
        0,
        0,
    )
    card["result"]["url"] = "cards/2e/elsewhere/index.html"
    assert compact_item(card)["result"]["url"] == "cards/2e/elsewhere/index.html"
