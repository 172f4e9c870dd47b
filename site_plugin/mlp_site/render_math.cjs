// Renders TeX to MathML with Temml, for build_math.py: a page's math in one call.
//
// stdin:  JSON [[tex, display], ...]
// stdout: JSON {"results": [{"html": ...} or {"error": ...}, ...]}, in the order of stdin.
// Temml writes MathML Core, which the browser draws itself (Chromium 109+, Firefox, Safari)
// and a screen reader reads: one copy of each equation, no HTML drawing beside it. Its tree is
// changed where Chromium would draw it otherwise than TeX: primes, the thin space before an
// operator name, spaces in scripts and \left( \right) around a flat row (build_math.py sizes
// \big delimiters).
"use strict";
const temml = require("temml");

// TeX reads a comma between digits as punctuation, (0,1) a pair; Temml reads it as a decimal
// comma, one number "0,1", unless a space follows it. The space makes Temml read it as TeX does
// (\text{...} is left as written).
const DIGIT_COMMA = /\\text\{[^{}]*\}|(\d),(?=\d)/g;
const asTeXReadsIt = (tex) => tex.replace(DIGIT_COMMA, (match, digit) => (digit === undefined ? match : `${digit}, `));

const text = (node) => (node.children ? node.children.map(text).join("") : node.text || "");
const isPrime = (node) => node.type === "mo" && (node.classes || []).includes("tml-prime");
// One prime, two or three as the one character Unicode has for them.
const PRIMES = { 1: "\u2032", 2: "\u2033", 3: "\u2034" };

// f' is <msup><mi>f</mi><mo>′</mo></msup>; Latin Modern Math's ′ is drawn at superscript height
// already, so as a superscript it floats far above its letter (Temml's style sheet draws it with
// a font of its own instead). Written after its letter, not above it, it sits where TeX puts it.
// x_i' (an <msubsup>) becomes x′ with the subscript after it: x′ᵢ.
function primeAfterLetter(node) {
  if (!["msup", "msubsup"].includes(node.type)) return node;
  const [base, script] = node.type === "msup" ? node.children : [node.children[0], node.children[2]];
  const marks = isPrime(script) ? [script] : script.type === "mrow" && script.children.length && script.children.every(isPrime) ? script.children : null;
  if (marks === null || !PRIMES[marks.length]) return node;
  const prime = marks[0];
  prime.children = [new prime.children[0].constructor(PRIMES[marks.length])];
  // Temml's italic correction (class tml-sml-pad, ...: a left padding) is kept: f′ clears the f.
  const pad = (script.classes || []).filter((c) => c.endsWith("-pad"));
  prime.classes = [...prime.classes.filter((c) => c !== "tml-prime"), ...pad].filter((c, i, all) => all.indexOf(c) === i);
  const primed = new node.constructor("mrow", [base, prime]);
  return node.type === "msup" ? primed : new node.constructor("msub", [primed, node.children[1]]);
}

// An operator name (\operatorname{relu}, \max, \log_2: an <mi> of two letters or more, or a
// script on one, followed by U+2061) after an ordinary atom gets a thin space in TeX. Temml
// writes it after a letter, not after a subscript or a closing parenthesis: s_0\operatorname{relu}.
const isName = (node) => node && node.type === "mi" && [...text(node)].length > 1;
const isOperatorName = (node, next) =>
  (next && next.type === "mo" && text(next) === "\u2061" &&
   (isName(node) || (["msub", "msup", "msubsup", "munder", "munderover"].includes(node.type) && isName(node.children[0])))) ||
  // \log(1-p): Temml wraps the name and its U+2061 in a row of their own
  (node.type === "mrow" && node.children.length >= 2 && isOperatorName(node.children[0], node.children[1]));
const isOrdinaryEnd = (node) => {
  if (["mn", "mi", "msub", "msup", "msubsup", "mfrac", "msqrt"].includes(node.type)) return true;
  if (node.type === "mo") return node.getAttribute("form") === "postfix" || /^[)\]|\u2016]$/.test(text(node));
  if (node.type === "mrow" && node.children.length) return isOrdinaryEnd(node.children[node.children.length - 1]);
  return false;
};
const ROWS = new Set(["math", "mrow", "mstyle", "mtd", "mpadded", "menclose"]);

function thinSpaceBeforeNames(node) {
  if (!ROWS.has(node.type)) return;
  const kids = node.children;
  for (let i = 1; i < kids.length; i++) {
    if (isOperatorName(kids[i], kids[i + 1]) && kids[i - 1].type !== "mspace" && isOrdinaryEnd(kids[i - 1])) {
      const space = new node.constructor("mspace", []);
      space.setAttribute("width", "0.1667em");
      kids.splice(i, 0, space);
      i++;
    }
  }
}

// TeX sets no space around a binary operator, a relation or punctuation in a script (l=1 under a
// sum, d_{l-1}); Chromium spaces them as on the line: l = 1. Each such operator in a script
// gets no space of its own.
const SCRIPTED = new Set(["msub", "msup", "msubsup", "munder", "mover", "munderover"]);
function unspacedInScripts(node, inScript) {
  if (!node || !node.children) return;
  if (inScript && node.type === "mo" && node.getAttribute("lspace") === undefined && node.getAttribute("rspace") === undefined) {
    node.setAttribute("lspace", "0em");
    node.setAttribute("rspace", "0em");
  }
  node.children.forEach((child, i) => unspacedInScripts(child, inScript || (SCRIPTED.has(node.type) && i > 0)));
}

// \left( ... \right) around a row no taller than a line (no fraction, limits, root, table, large
// operator or stretched delimiter inside): TeX draws the parentheses of the text's size. Chromium
// lays a stretchy one out as wide as its widest size variant (0.875 em in Latin Modern Math, the
// plain one is 0.39 em), which left a wide gap inside: ( d_l + d_l ). Such a pair is not stretched.
const TALL = new Set(["mfrac", "munder", "mover", "munderover", "msqrt", "mroot", "mtable"]);
const isTall = (node) => Boolean(node.children) && (TALL.has(node.type) ||
  (node.type === "mo" && (node.getAttribute("stretchy") === "true" || node.getAttribute("minsize") !== undefined || node.getAttribute("largeop") === "true" || /[\u2211\u220F\u222B-\u2233\u22C0-\u22C3]/.test(text(node)))) ||
  node.children.some(isTall));
function flatFences(node) {
  const kids = node.type === "mrow" ? node.children : [];
  const [open, close] = [kids[0], kids[kids.length - 1]];
  const fence = (mo, form) => mo && mo.type === "mo" && mo.getAttribute("stretchy") === "true" && mo.getAttribute("form") === form;
  if (kids.length > 2 && fence(open, "prefix") && fence(close, "postfix") && !kids.slice(1, -1).some(isTall)) {
    open.setAttribute("stretchy", "false");
    close.setAttribute("stretchy", "false");
  }
}

// Temml 0.13.5 fills a short row of an aligned environment with cells whose CSS is its own Style object
// (new MathNode("mtd", [], [], style)), so the markup says style="level:0;color:undefined;font:;…": keep
// only the CSS it then sets on them (tests/test_build_math.py).
const CELL_CSS = ["padding", "paddingLeft", "paddingRight", "width"];
function cssOnly(node) {
  if (node.style && node.style.constructor !== Object) {
    node.style = Object.fromEntries(CELL_CSS.filter((k) => typeof node.style[k] === "string").map((k) => [k, node.style[k]]));
  }
}

function rewrite(node) {
  if (!node) return node;
  cssOnly(node);
  if (!node.children) return node;
  node.children = node.children.map((child) => primeAfterLetter(rewrite(child)));
  thinSpaceBeforeNames(node);
  flatFences(node);
  return node;
}

function render([tex, display]) {
  try {
    // throwOnError: an unknown command fails the build instead of showing red TeX.
    // annotate: false: no TeX annotation (two more elements per equation, read by no one).
    const tree = temml.__renderToMathMLTree(asTeXReadsIt(tex), { displayMode: display, throwOnError: true, strict: true, annotate: false });
    rewrite(tree);
    unspacedInScripts(tree, false);
    return { html: tree.toMarkup() };
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
