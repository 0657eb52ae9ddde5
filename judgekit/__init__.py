"""judgekit: an offline rules reference for Star Trek CCG tournament judges."""
