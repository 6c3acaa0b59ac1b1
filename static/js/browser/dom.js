// Tiny DOM helpers: build elements from plain values, no framework, no innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** h("button", {class: "x", onclick: f, "aria-label": "..."}, child, ...) → element. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

/** Same as h() in the SVG namespace. */
export function s(tag, props = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props);
  append(el, children);
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "value" || key === "checked" || key === "selected") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `container` with `children` (nodes, strings, arrays). */
export function fill(container, ...children) {
  container.replaceChildren();
  append(container, children);
  return container;
}

/** Set or remove an attribute only when it changes (keeps in-place updates cheap). */
export function attr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const text = value === true ? "" : String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

/** Toggle a class only when needed. */
export function cls(el, name, on) {
  if (el.classList.contains(name) !== Boolean(on)) el.classList.toggle(name, Boolean(on));
}

/** Set text content only when it changes. */
export function text(el, value) {
  const t = String(value ?? "");
  if (el.textContent !== t) el.textContent = t;
}

/**
 * Run `build()` only when `key` differs from the last one used for `root` (compared with
 * ===), so re-renders of unchanged parts keep their nodes, and with them keyboard focus.
 */
export function memo(root, key, build) {
  if (root.__memoKey === key && root.__memoSet) return;
  root.__memoKey = key;
  root.__memoSet = true;
  build();
}
