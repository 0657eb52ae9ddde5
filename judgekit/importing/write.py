"""Writing a draft folder whole or not at all: a temporary folder beside it, renamed into place."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from judgekit.importers.common import dump_yaml
from judgekit.importing.decisions import FILE as DECISIONS
from judgekit.importing.draft import Draft
from judgekit.importing.report import report_data, report_markdown
from judgekit.importing.source import ImportRefused


def write_draft(draft: Draft, area: str, out: Path) -> None:
    """Write ``out`` (FORMAT.md's layout under ``area``, the report, the kept decisions)."""
    out = out.resolve()
    if out.exists() and not (out / "import-report.json").is_file() and any(out.iterdir()):
        raise ImportRefused(f"{out}: exists and is not a draft folder; choose another --out")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".import-", dir=out.parent))
    try:
        folder = tmp / area / draft.document
        folder.mkdir(parents=True)
        dump_yaml(draft.version, folder / f"{draft.version_id}.yaml")
        if draft.new_document is not None:
            dump_yaml(draft.new_document, folder / "document.yaml")
        dump_yaml(draft.corrections, folder / f"{draft.version_id}.corrections.yaml")
        data = report_data(draft)
        (tmp / "import-report.json").write_text(
            json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        (tmp / "import-report.md").write_text(report_markdown(data), encoding="utf-8")
        kept = out / DECISIONS
        if kept.is_file():
            shutil.copy2(kept, tmp / DECISIONS)
        else:
            (tmp / DECISIONS).write_text("decisions: []\n", encoding="utf-8")
        if out.exists():
            old = out.with_name(out.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
