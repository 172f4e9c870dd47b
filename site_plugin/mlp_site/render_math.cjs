// Renders TeX to MathML with Temml, for build_math.py: a page's math in one call.
//
// stdin:  JSON [[tex, display], ...]
// stdout: JSON {"results": [{"html": ...} or {"error": ...}, ...]}, in the order of stdin.
// Temml writes MathML Core, which the browser draws itself (Chromium 109+, Firefox, Safari)
// and a screen reader reads: one copy of each equation, no HTML drawing beside it.
"use strict";
const temml = require("temml");

// TeX reads a comma between digits as punctuation, (0,1) a pair; Temml reads it as a decimal
// comma, one number "0,1", unless a space follows it. The space makes Temml read it as TeX does
// (\text{...} is left as written).
const DIGIT_COMMA = /\\text\{[^{}]*\}|(\d),(?=\d)/g;
const asTeXReadsIt = (tex) => tex.replace(DIGIT_COMMA, (match, digit) => (digit === undefined ? match : `${digit}, `));

function render([tex, display]) {
  try {
    // throwOnError: an unknown command fails the build instead of showing red TeX.
    // annotate: false: no TeX annotation (two more elements per equation, read by no one).
    return { html: temml.renderToString(asTeXReadsIt(tex), { displayMode: display, throwOnError: true, strict: true, annotate: false }) };
  } catch (error) {
    return { error: String(error.message || error) };
  }
}

const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const items = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  process.stdout.write(JSON.stringify({ results: items.map(render) }));
});
