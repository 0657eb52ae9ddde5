"""The generic importer: a new version of a held document, from Markdown or plain text, as a
draft folder (``judgekit import``). ``text`` reads the source's parts, ``body`` makes blocks
and icon tokens, ``lineage`` aligns entries to the base version, ``draft`` assembles the YAML,
``report`` and ``write`` hand it to the maintainer, ``decisions`` keeps their answers."""
