// What a calculator case pins of the pack's answer (window.judgekit.calculate's): the fields
// tests/golden/calculator.py's `project` takes from the server's JSON, under the same names.
(c) => {
  c = JSON.parse(JSON.stringify(c));
  return {
    drawn: c.drawn, limit: c.limit, limits: c.limits, start: c.start,
    start_basis: c.basis.start.basis,
    dilemmas: c.results.map((r) => [
      r.position, r.outcome, r.reasons, r.rest, r.spent, r.basis,
      r.basis === "rule" ? [] : r.points, r.message,
    ]),
    end: [c.end[0], c.end[2]], notes: c.notes,
  };
}
