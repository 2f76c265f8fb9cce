// One accessibility audit of what the page shows now (e2e/a11y_helpers.py evaluates this
// function with the impacts that count; window.axe is the pinned axe-core, injected first).
// Returns the violations of those impacts: [{id, impact, help, nodes: [{target, html, summary}]}].
async (impacts) => {
  // let fades and slides end (finite animations only: a spinner turns for ever)
  const ending = document.getAnimations().filter((animation) => {
    const end = animation.effect && animation.effect.getComputedTiming().endTime;
    return Number.isFinite(end);
  });
  await Promise.all(ending.map((animation) => animation.finished.catch(() => null)));

  // -- colours: [r, g, b, a], WCAG luminance and contrast, "a over b" compositing
  const parse = (text) => {
    const match = /rgba?\(([^)]*)\)/.exec(text || "");
    if (!match) return null;
    const [r, g, b, a = 1] = match[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const channel = (c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const over = (top, under) => {
    const alpha = top[3] + under[3] * (1 - top[3]);
    if (alpha === 0) return [0, 0, 0, 0];
    const mix = (i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / alpha;
    return [mix(0), mix(1), mix(2), alpha];
  };
  const contrast = (x, y) => {
    const [high, low] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (high + 0.05) / (low + 0.05);
  };
  const css = (c) => `rgba(${c.map((v, i) => (i < 3 ? Math.round(v) : Number(v.toFixed(3)))).join(", ")})`;

  // -- every gradient becomes its least favourable solid colour (axe cannot measure text on a
  // gradient): each layer's lightest or darkest stop (judged over mid grey, so that a faint
  // white counts as light), composited bottom-up over the background colour; of the light and
  // the dark result, the one with less contrast to the element's own text colour.
  const layers = (image) => image.split(/(?=(?:repeating-)?(?:linear|radial|conic)-gradient\()/)
    .map((layer) => [...layer.matchAll(/rgba?\([^)]*\)/g)].map((m) => parse(m[0])))
    .filter((stops) => stops.length);
  const onGrey = (c) => luminance(over(c, [128, 128, 128, 1]));
  const flatten = (stops, base, lighter) => {
    let colour = base;
    for (const layer of [...stops].reverse()) { // the first layer is drawn on top
      const extreme = layer.reduce((best, c) => ((onGrey(c) > onGrey(best)) === lighter ? c : best));
      colour = over(extreme, colour);
    }
    return colour;
  };
  const restore = [];
  for (const element of document.querySelectorAll("*")) {
    const style = getComputedStyle(element);
    if (!style.backgroundImage.includes("gradient(")) continue;
    const stops = layers(style.backgroundImage);
    const base = parse(style.backgroundColor) || [0, 0, 0, 0];
    const text = parse(style.color) || [0, 0, 0, 1];
    const light = flatten(stops, base, true);
    const dark = flatten(stops, base, false);
    const solid = contrast(text, light) < contrast(text, dark) ? light : dark;
    restore.push([element, element.getAttribute("style")]);
    element.style.setProperty("transition", "none", "important");
    element.style.setProperty("background-image", "none", "important");
    element.style.setProperty("background-color", css(solid), "important");
  }

  // -- what axe does not read, measured here with its thresholds (3:1 for large text, else
  // 4.5:1): a card's indices are CSS generated content (part of the card's picture)
  const faint = [];
  for (const element of document.querySelectorAll(".card [data-rank]")) {
    if (!element.getClientRects().length) continue;
    const before = getComputedStyle(element, "::before");
    const under = [];
    for (let node = element; node; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour[3] > 0) under.push(colour);
      if (colour && colour[3] >= 1) break;
    }
    const background = under.reduceRight((colour, layer) => over(layer, colour), [255, 255, 255, 1]);
    const size = parseFloat(before.fontSize);
    const large = size >= 24 || (Number(before.fontWeight) >= 700 && size >= 18.66);
    const ratio = contrast(parse(before.color), background);
    if (ratio < (large ? 3 : 4.5)) {
      const card = element.closest(".card");
      faint.push({
        target: [`.card[data-card="${card.dataset.card}"] [data-rank]`],
        html: card.outerHTML,
        failureSummary: `index ${element.dataset.rank}: contrast ${ratio.toFixed(2)} (${before.color} on ${css(background)}, ${size}px, weight ${before.fontWeight})`,
      });
    }
  }

  try {
    const result = await axe.run(document, { resultTypes: ["violations", "incomplete"] });
    // text the colour of its background is unreadable; axe only leaves it for review
    for (const node of result.incomplete.filter((v) => v.id === "color-contrast").flatMap((v) => v.nodes)) {
      if (node.any.some((check) => check.data && check.data.messageKey === "equalRatio")) {
        faint.push({ target: node.target, html: node.html, failureSummary: "the text is the colour of its background (axe: equalRatio)" });
      }
    }
    const measured = faint.length ? [{
      id: "color-contrast (measured by the test)",
      impact: "serious",
      help: "Card indices drawn by CSS meet the contrast thresholds; no text is the colour of its background",
      nodes: faint,
    }] : [];
    return [...result.violations, ...measured].filter((v) => impacts.includes(v.impact)).map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((node) => ({
        target: node.target.join(" "),
        html: node.html.slice(0, 160),
        summary: (node.failureSummary || "").replace(/\s+/g, " ").slice(0, 240),
      })),
    }));
  } finally {
    for (const [element, style] of restore) {
      if (style === null) element.removeAttribute("style");
      else element.setAttribute("style", style);
    }
  }
}
