// Renders TeX to HTML with KaTeX, for build_math.py: a page's math in one call.
//
// stdin:  JSON [[tex, display], ...]
// stdout: JSON {"results": [{"html": ...} or {"error": ...}, ...]}, in the order of stdin.
// KaTeX's default output carries MathML beside the drawn HTML, so a screen reader
// reads the equation; the drawn part is aria-hidden.
"use strict";
const katex = require("katex");

function render([tex, display]) {
  try {
    // throwOnError: an unknown command fails the build instead of showing red TeX.
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error" }) };
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
