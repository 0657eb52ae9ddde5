// The pack's search in Node, as a page of the pack runs it: its scripts from judgekit/static,
// unmodified, over a real pack's search data (golden.test.mjs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const STATIC = path.join(REPO, "judgekit", "static");
export const STATIC_DIR = STATIC;
const GOLDEN = process.env.JUDGEKIT_GOLDEN || path.join(REPO, "tests", "golden", "search.jsonl");

// The pack's search code as its pages load it (search-more.js brings the stemmer).
export const SCRIPTS = ["js/pack-search.js"];

// The virtual environment's Python (JUDGEKIT_PYTHON), for what only the server knows.
export function python() {
  return process.env.JUDGEKIT_PYTHON || path.join(REPO, ".venv", "bin", "python");
}

// The pack at JUDGEKIT_PACK_DIR, else one built with the virtual environment's judgekit
// (JUDGEKIT_BIN, default .venv/bin/judgekit) into a temporary folder.
let built = null;
export function packDir() {
  if (process.env.JUDGEKIT_PACK_DIR) return process.env.JUDGEKIT_PACK_DIR;
  if (built) return built;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "judgekit-node-")), "pack");
  const bin = process.env.JUDGEKIT_BIN || path.join(REPO, ".venv", "bin", "judgekit");
  // By words: the golden replay gives the pack the server's nearness (golden.test.mjs), not its part.
  const made = spawnSync(bin, ["build", "--no-meaning", "--out", out], { encoding: "utf-8" });
  assert.equal(made.status, 0, `judgekit build failed: ${made.stderr}`);
  built = out;
  process.on("exit", () => fs.rmSync(path.dirname(out), { recursive: true, force: true }));
  return out;
}

// A page of the pack, as much of it as pack-search.js reads: its scripts load from the pack's
// folder when it appends them; `withMore` false leaves search-more.js out, as on a phone still
// fetching it.
export function packPage(dir, withMore = true) {
  const root = pathToFileURL(dir + path.sep).href;
  const head = {
    appendChild(tag) {
      const file = fileURLToPath(tag.src);
      setImmediate(() => {
        if (!withMore && path.basename(file) === "search-more.js") return tag.onerror();
        vm.runInContext(fs.readFileSync(file, "utf-8"), context, { filename: file });
        tag.onload();
      });
    },
  };
  const document = {
    currentScript: { src: root + "static/js/pack-search.js" },
    readyState: "complete",
    baseURI: root,
    head,
    addEventListener() {},
    querySelector() { return null; },
    createElement() { return {}; },
  };
  const context = vm.createContext({
    document, URL, URLSearchParams, setTimeout, console,
    location: { href: root + "index.html", search: "" },
  });
  context.window = context.self = context;
  for (const name of SCRIPTS) {
    const file = path.join(STATIC, name);
    vm.runInContext(fs.readFileSync(file, "utf-8"), context, { filename: file });
  }
  return context;
}

// What the golden file keeps of an answer (tests/golden/generate.py: project).
export function project(answer) {
  answer = JSON.parse(JSON.stringify(answer));   // the page's objects, as this realm's
  const out = {};
  for (const key of Object.keys(answer)) if (key !== "results") out[key] = answer[key];
  out.results = answer.results.map((r) => ({
    id: `${r.document}/${r.version}/${r.id}`, kind: r.kind, edition: r.edition, exact: r.exact, snippet: r.snippet,
    also_in: r.also_in.map((o) => [o.version, o.id, o.snippet]),
  }));
  return out;
}

export function golden() {
  return fs.readFileSync(GOLDEN, "utf-8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}


// A pack of a corpus with its meaning part (`judgekit --root CORPUS build`), its search cache
// (the vectors, for the server's side to reuse), its meaning manifest and its parts' bytes.
export function meaningPack(corpus, prefix) {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const out = path.join(top, "pack"), cache = path.join(top, "cache");
  const bin = process.env.JUDGEKIT_BIN || path.join(REPO, ".venv", "bin", "judgekit");
  const made = spawnSync(bin, ["--root", corpus, "build", "--out", out], {
    encoding: "utf-8", env: { ...process.env, JUDGEKIT_SEARCH_CACHE_DIR: cache },
  });
  assert.equal(made.status, 0, `judgekit build failed: ${made.stderr}`);
  process.on("exit", () => fs.rmSync(top, { recursive: true, force: true }));
  const context = { self: {} };
  vm.runInNewContext(fs.readFileSync(path.join(out, "meaning", "manifest.js"), "utf-8"), context);
  const manifest = context.self.JUDGEKIT_MEANING;
  const bytes = (part) => {
    const b = fs.readFileSync(path.join(out, manifest.files[part].name));
    assert.equal(b.length, manifest.files[part].size);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
  };
  return { out, cache, manifest, bytes };
}
