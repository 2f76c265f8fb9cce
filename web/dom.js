// A tiny DOM builder: h("button", {class: "x", onclick}, "text", child) -> HTMLElement.

/**
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children strings, nodes, arrays, or null/false (skipped)
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on") && typeof value === "function") {
        el.addEventListener(name.slice(2), value);
      } else if (name === "class") {
        el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
      } else if (name === "dataset") {
        for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[key] = String(v);
      } else if (name === "style" && typeof value === "object") {
        for (const [key, v] of Object.entries(value)) el.style.setProperty(key, String(v));
      } else if (name in el && typeof value !== "string" && name !== "list") {
        el[name] = value;
      } else {
        el.setAttribute(name, value === true ? "" : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** An inline SVG element from markup we write ourselves (never from user input). */
export function svg(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

/** Replace the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
