"""A computed-contrast check run in the page (no outside tool): every visible text node's
colour against the background actually behind it, as WCAG 2 defines the ratio.

Form fields are checked too, since their text is no text node: every visible input, text
area and select, its value's colour and, when it has one, its placeholder's (the computed
``::placeholder`` colour, faded by that pseudo-element's opacity), whether or not the
placeholder shows at the moment.

The background is the element's own and its ancestors' background colours composited from
the page canvas up (gradients and images are not considered: the client uses none behind
text); the text colour is faded by the element's and its ancestors' opacity. Disabled
controls are exempt, as WCAG exempts inactive components.
"""

from __future__ import annotations

from typing import Any

MINIMUM = 4.5

CHECK = """(minimum) => {
  for (const a of document.getAnimations()) { // settle entrances (fades) at their end state
    try {
      if (a.effect.getComputedTiming().iterations !== Infinity) a.finish();
    } catch { /* already gone */ }
  }
  const parse = (c) => {
    let m = c.match(/^rgba?\\(([^)]+)\\)$/);
    let scale = 1;
    if (!m) { m = c.match(/^color\\(srgb ([^)]+)\\)$/); scale = 255; }
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0] * scale, p[1] * scale, p[2] * scale, p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const canvas = dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
  const chain = (el) => {
    const out = [];
    for (let e = el; e; e = e.parentElement) out.push(e);
    return out;
  };
  const failures = [];
  const fields = []; // the form fields checked: "name" and "name::placeholder"
  const behind = (elements) => {
    let bg = canvas;
    for (const e of [...elements].reverse()) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) bg = over(c, bg);
    }
    return bg;
  };
  const fade = (elements) => elements.reduce((a, e) => a * Number(getComputedStyle(e).opacity), 1);
  const check = (el, text, colour, bg, alpha, what = "") => {
    const fg = parse(colour);
    if (!fg) return;
    const shown = over([fg[0], fg[1], fg[2], fg[3] * alpha], bg);
    const value = ratio(shown, bg);
    if (value < minimum) {
      const tag = el.tagName.toLowerCase();
      const classes = typeof el.className === "string" ? el.className.trim() : "";
      const where = (classes ? `${tag}.${classes.split(/\\s+/).join(".")}` : tag) + what;
      const rgb = `rgb(${bg.slice(0, 3).map(Math.round).join(", ")})`;
      const quoted = JSON.stringify(text.slice(0, 40));
      failures.push(`${value.toFixed(2)}:1 ${quoted} in ${where} (${colour} on ${rgb})`);
    }
  };
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || seen.has(el)) continue;
    seen.add(el);
    if (!el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    if (el.closest(":disabled, .field.off, [inert]")) continue;
    const elements = chain(el);
    check(el, text, getComputedStyle(el).color, behind(elements), fade(elements));
  }
  const NO_TEXT = new Set(["hidden", "checkbox", "radio", "range", "color", "file", "image"]);
  for (const el of document.body.querySelectorAll("input, textarea, select")) {
    if (el.tagName === "INPUT" && NO_TEXT.has(el.type)) continue;
    if (!el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    if (el.closest(":disabled, .field.off, [inert]")) continue;
    const elements = chain(el);
    const bg = behind(elements);
    const alpha = fade(elements);
    const name = el.name || el.id || el.getAttribute("aria-label") || el.tagName.toLowerCase();
    const value = el.tagName === "SELECT" ? (el.selectedOptions[0]?.text || "") : el.value;
    check(el, value || "(value)", getComputedStyle(el).color, bg, alpha, ` [${name}]`);
    fields.push(name);
    if (el.placeholder) {
      const holder = getComputedStyle(el, "::placeholder");
      const faded = alpha * Number(holder.opacity || 1);
      check(el, el.placeholder, holder.color, bg, faded, ` [${name}]::placeholder`);
      fields.push(`${name}::placeholder`);
    }
  }
  return { failures, fields };
}"""


def contrast(page: Any, scheme: str, minimum: float = MINIMUM) -> tuple[list[str], list[str]]:
    """The visible texts below ``minimum``:1 with the page in ``scheme`` ("light", "dark"),
    and the form fields checked (``name``, and ``name::placeholder`` for a placeholder)."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function("() => new Promise((r) => requestAnimationFrame(() => r(true)))")
    found: dict[str, list[str]] = page.evaluate(CHECK, minimum)
    return [f"{scheme}: {failure}" for failure in found["failures"]], found["fields"]


def low_contrast(page: Any, scheme: str, minimum: float = MINIMUM) -> list[str]:
    """The visible texts (form fields and their placeholders included) below ``minimum``:1
    with the page in ``scheme`` ("light", "dark")."""
    return contrast(page, scheme, minimum)[0]
