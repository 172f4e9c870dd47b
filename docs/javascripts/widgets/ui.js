// Small DOM helpers shared by the widgets: elements, labelled number controls, the widgets' style.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// An SVG element (the stepper's graph, the playground's loss curve) with its attributes and text.
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// The heat maps' colour of a value: 0 -> blue (#0072B2), 1 -> orange (#E69F00), through white at
// 0.5; Okabe-Ito ends, clamped to [0, 1]. An [r, g, b] triple.
export function colour(v) {
  const t = Math.min(1, Math.max(0, v));
  const mix = (a, b, u) => Math.round(a + (b - a) * u);
  return t < 0.5
    ? [mix(0, 255, 2 * t), mix(114, 255, 2 * t), mix(178, 255, 2 * t)]
    : [mix(255, 230, 2 * t - 1), mix(255, 159, 2 * t - 1), mix(255, 0, 2 * t - 1)];
}

let counter = 0;
export const uid = (stem) => `mlp-${stem}-${(counter += 1)}`;

// A template of the page's words (mlp_ref.course.widgets) with its {names} filled in.
export const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));

// A number field and a slider for one value, kept in step; onChange gets a finite number.
// Bad text in the field marks it invalid and says why in a message tied to it. words: the
// widget's words (its slider and notNumber templates).
export function numberControl({ label, value, min, max, step = 0.01, onChange, words }) {
  const id = uid('field');
  const field = el('input', { type: 'number', id, step: 'any', value: String(value), inputmode: 'decimal',
    'aria-describedby': `${id}-msg` });
  const slider = el('input', { type: 'range', min, max, step, value: String(value), 'aria-label': fill(words.slider, { label }),
    tabindex: 0 });
  const message = el('span', { id: `${id}-msg`, class: 'mlp-widget__msg', role: 'status' });
  slider.addEventListener('input', () => {
    field.value = slider.value;
    field.removeAttribute('aria-invalid');
    message.textContent = '';
    onChange(Number(slider.value));
  });
  field.addEventListener('input', () => {
    const text = field.value.trim();
    const number = text === '' ? NaN : Number(text);
    if (!Number.isFinite(number)) {
      field.setAttribute('aria-invalid', 'true');
      message.textContent = fill(words.notNumber, { text: field.value });
      return;
    }
    field.removeAttribute('aria-invalid');
    message.textContent = '';
    slider.value = String(Math.min(max, Math.max(min, number)));
    onChange(number);
  });
  const row = el('div', { class: 'mlp-widget__control' },
    el('label', { for: id, text: label }), slider, field, message);
  const set = (v) => { field.value = String(v); slider.value = String(Math.min(max, Math.max(min, v))); };
  return { row, field, slider, set };
}

const STYLE = `
.mlp-widget{border:1px solid var(--md-default-fg-color--lighter);border-radius:.3rem;padding:.6rem .8rem;margin:1em 0}
.mlp-widget__title{font-weight:700;margin:0 0 .4rem}
.mlp-widget fieldset{border:1px solid var(--md-default-fg-color--lightest);border-radius:.2rem;margin:.4rem 0;padding:.3rem .6rem;min-width:0}
.mlp-widget legend{padding:0 .3rem}
.mlp-widget__grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(17rem,100%),1fr));gap:.2rem .8rem}
.mlp-widget__control{display:grid;grid-template-columns:4.5rem minmax(4rem,1fr) 6rem;align-items:center;gap:.4rem}
.mlp-widget__control>select,.mlp-widget__control>input[type=text],.mlp-widget__control>input[data-field]{grid-column:2/-1}
.mlp-widget__control>label{overflow-wrap:anywhere}
.mlp-widget__control--wide{grid-template-columns:minmax(0,1fr) minmax(7rem,9rem)}
.mlp-widget__control--rate{grid-template-columns:minmax(0,1fr) minmax(5rem,7rem)}
.mlp-widget__control--rate>input[type=range]{grid-column:1/-1;grid-row:2}
.mlp-widget [hidden]{display:none}
.mlp-widget__control .mlp-widget__msg{grid-column:1/-1}
.mlp-widget__msg:empty{display:none}
.mlp-widget__msg,.mlp-widget__error{color:var(--md-typeset-color);font-weight:700}
.mlp-widget__error:not(:empty)::before{content:"\\26A0\\FE0E  "}
.mlp-widget input[type=number],.mlp-widget input[type=text],.mlp-widget select{font:inherit;color:var(--md-default-fg-color);background:var(--md-default-bg-color);border:1px solid var(--md-default-fg-color--light);border-radius:.2rem;padding:.1rem .3rem;min-width:0;width:100%;box-sizing:border-box}
.mlp-widget input[aria-invalid=true]{border:2px solid var(--md-typeset-color);outline:2px dashed var(--md-default-fg-color--light)}
.mlp-widget button{font:inherit;color:var(--md-default-fg-color);background:var(--md-default-fg-color--lightest);border:1px solid var(--md-default-fg-color--light);border-radius:.2rem;padding:.2rem .6rem;margin:.2rem .4rem .2rem 0;cursor:pointer}
.mlp-widget :focus-visible{outline:3px solid var(--md-accent-fg-color);outline-offset:2px}
.mlp-widget canvas,.mlp-widget svg{max-width:100%;height:auto;display:block;touch-action:none}
.mlp-widget output{font-variant-numeric:tabular-nums}
.mlp-widget__readout{margin:.3rem 0}
.mlp-widget__steps{font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.mlp-widget__log{block-size:14rem;overflow-y:auto;border:1px solid var(--md-default-fg-color--lightest);border-radius:.2rem;padding:0 .4rem;margin:.4rem 0}
.mlp-widget button[aria-pressed=true]{border:2px solid var(--md-default-fg-color);font-weight:700}
.mlp-widget button[aria-disabled=true]{color:var(--md-default-fg-color--light);border-style:dashed;cursor:not-allowed}
.mlp-widget__current{font-weight:700}
.mlp-widget .md-typeset__scrollwrap{margin-left:0;margin-right:0}
`;

export function injectStyle() {
  if (document.getElementById('mlp-widget-style')) return;
  document.head.append(el('style', { id: 'mlp-widget-style', text: STYLE }));
}

// Every placeholder of this widget on the page, with its starting values.
export function placeholders(name) {
  injectStyle();
  return [...document.querySelectorAll(`.mlp-widget[data-widget="${name}"]`)].map((root) => {
    const config = JSON.parse(root.dataset.config);
    root.replaceChildren();
    return [root, config];
  });
}

// A table in Material's scrolling wrapper; focusable, so that a keyboard can scroll it on a phone.
export function scrollBox(table, label) {
  return el('div', { class: 'md-typeset__scrollwrap', tabindex: 0, role: 'region', 'aria-label': label },
    el('div', { class: 'md-typeset__table' }, table));
}
