"""Every check a corpus must pass, from every layer (format, content, timing, search vocabulary),
and the corpus loaded only when it passes them: what `judgekit check` and the app's start-up run."""
