// Reduced motion, the gear menu's setting: "auto" follows the system's prefers-reduced-motion
// (and its changes, live), "on" removes motion, "off" keeps it whatever the system says. The
// choice shows as <html data-motion="reduce|full">: style.css stops every animation and
// transition under data-motion="reduce"; scripts that scroll ask reducedMotion().

const SYSTEM = "(prefers-reduced-motion: reduce)";
export const MOTION_SETTINGS = ["auto", "on", "off"];

let setting = "auto";
/** @type {MediaQueryList | null} */
let system = null;

function draw() {
  const reduce = setting === "on" || (setting === "auto" && Boolean(system && system.matches));
  document.documentElement.dataset.motion = reduce ? "reduce" : "full";
}

/** Apply the player's setting ("auto", "on" or "off"; anything else counts as "auto"). */
export function applyMotion(value) {
  setting = MOTION_SETTINGS.includes(value) ? value : "auto";
  if (!system && typeof window.matchMedia === "function") {
    system = window.matchMedia(SYSTEM);
    system.addEventListener("change", draw);
  }
  draw();
}

/** True when motion is reduced now (for smooth scrolling and the like). */
export function reducedMotion() {
  return document.documentElement.dataset.motion === "reduce";
}
