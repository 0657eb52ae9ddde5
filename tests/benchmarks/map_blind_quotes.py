"""Map blind questions' seed quotes to corpus entries (mechanical: text containment, then fuzzy)."""
import re, sys, difflib, yaml
from judgekit.corpus.loader import load_corpus
from judgekit.render.text import normalize_typography

corpus = load_corpus()
DOC = {"2E": "2e-rulebook", "1E": "1e-current-rulings"}

def plain(t):
    t = normalize_typography(t, casefold=True)
    t = re.sub(r"[*_\\#>`]", "", t)
    t = re.sub(r"[^a-z0-9 ]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()

def entries(doc, ver):
    v = next(x for x in corpus.documents[doc].versions if x.id == ver)
    return v.entries

qs = yaml.safe_load(open(sys.argv[1]))
out, unmatched = [], []
for item in qs:
    doc = DOC[item["game"]]; ver = str(item["version"])
    ents = entries(doc, ver)
    quote = plain(item["quote"])
    texts = {eid: plain(e.title + " " + " ".join(b.text for b in e.body)) for eid, e in ents.items()}
    hits = [eid for eid, t in texts.items() if quote in t]
    how = "exact"
    if not hits:
        # fuzzy: best ratio of longest matching block length over quote length
        best = []
        for eid, t in texts.items():
            sm = difflib.SequenceMatcher(None, quote, t, autojunk=False)
            m = sum(b.size for b in sm.get_matching_blocks())
            best.append((m / len(quote), eid))
        best.sort(reverse=True)
        if best[0][0] >= 0.9:
            hits = [best[0][1]]; how = f"fuzzy {best[0][0]:.2f}"
        else:
            unmatched.append((item, best[:3])); continue
    # the most specific: the hit with no hit among its children (deepest)
    hits.sort(key=lambda eid: (-ents[eid].depth, len(texts[eid])))
    eid = hits[0]
    rec = {"q": item["q"], "category": item["category"], "expect": f"{doc}/{ver}/{eid}", "quote": item["quote"]}
    if item.get("chosen"):
        rec["params"] = {"edition": item["chosen"]}
    out.append((rec, how, item.get("heading"), ents[eid].title))
for rec, how, head, title in out:
    if how != "exact" or (head and plain(head)[:20] not in plain(title) and plain(title)[:20] not in plain(head)):
        print("CHECK", how, "|", head, "->", rec["expect"], "|", title, file=sys.stderr)
for item, best in unmatched:
    print("UNMATCHED", item["q"], "|", item["heading"], best, file=sys.stderr)
yaml.safe_dump([r for r, *_ in out], open(sys.argv[2], "w"), sort_keys=False, allow_unicode=True, width=1000)
print(len(out), "mapped", len(unmatched), "unmatched")
