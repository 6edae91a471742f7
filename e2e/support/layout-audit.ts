import type { Page } from "@playwright/test";

/** One layout defect a user would see: where it is and what is wrong. */
export interface LayoutFinding {
  rule: "page-overflow" | "panel-overflow" | "covered" | "cut-text" | "off-screen";
  target: string;
  detail: string;
}

/**
 * Checks what is on screen now: no sideways overflow of the page or of any panel, no interactive element or
 * text covered by another element, no text cut without an ellipsis and a title (naming the whole text), and
 * nothing interactive pushed past the window's edge. With a dialog, sheet or menu open, only that layer is
 * checked (what is behind it is inert). Elements inside `[data-scroll-x]` may scroll sideways on purpose.
 */
export function auditLayout(page: Page, options: { scope?: string } = {}): Promise<LayoutFinding[]> {
  return page.evaluate(auditInPage, options.scope ?? null);
}

/** Whether `selector` (e.g. the composer's Send button) is fully clickable: every sample point hits it. */
export function coveringElement(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((target) => {
    const element = document.querySelector(target);
    if (!element) return `${target} is missing`;
    const rect = element.getBoundingClientRect();
    for (const [fx, fy] of [
      [0.5, 0.5],
      [0.1, 0.1],
      [0.9, 0.1],
      [0.1, 0.9],
      [0.9, 0.9],
    ] as const) {
      const hit = document.elementFromPoint(rect.left + rect.width * fx, rect.top + rect.height * fy);
      if (hit && !element.contains(hit) && !hit.contains(element)) return `${hit.tagName.toLowerCase()} "${(hit.textContent ?? "").trim().slice(0, 60)}"`;
    }
    return null;
  }, selector);
}

// Runs inside the page: keep it self-contained (no imports, no closures over test code).
function auditInPage(scopeSelector: string | null): LayoutFinding[] {
  const findings: LayoutFinding[] = [];
  const seen = new Set<string>();
  const report = (rule: LayoutFinding["rule"], target: string, detail: string) => {
    const key = `${rule}|${target}|${detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      findings.push({ rule, target, detail });
    }
  };
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  const text = (node: Node | null) => (node?.textContent ?? "").replace(/\s+/g, " ").trim();
  const describe = (element: Element): string => {
    const tag = element.tagName.toLowerCase();
    const role = element.getAttribute("role");
    const name = element.getAttribute("aria-label") ?? element.getAttribute("title") ?? text(element);
    const id = element.getAttribute("data-testid");
    return `${role ?? tag}${id ? `[${id}]` : ""}${name ? ` "${name.slice(0, 60)}"` : ""}`;
  };
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (element: Element) => {
    let css = styles.get(element);
    if (!css) styles.set(element, (css = getComputedStyle(element)));
    return css;
  };
  const srOnly = (element: Element) => {
    const box = element.getBoundingClientRect();
    const css = style(element);
    return (box.width <= 1 && box.height <= 1) || css.clip.startsWith("rect(0") || css.clipPath === "inset(50%)";
  };
  const hiddenFromUsers = (element: Element) => element.closest("[aria-hidden='true'], [inert], [hidden]") !== null;
  const isTransient = (element: Element) =>
    element.closest("[role='tooltip'], [data-slot='tooltip-content'], [data-radix-popper-content-wrapper] [data-side][role='tooltip']") !== null;

  // The top layer: the last open dialog or menu, else the page.
  const layers = [
    ...document.querySelectorAll("[role='dialog'][data-state='open'], [role='alertdialog'][data-state='open'], [role='menu'][data-state='open']"),
  ];
  const scope: Element = (scopeSelector ? document.querySelector(scopeSelector) : null) ?? layers.at(-1) ?? document.body;

  /** The part of an element's box that is not clipped by the window or a scrolling/clipping ancestor. */
  const visibleBox = (element: Element) => {
    const box = element.getBoundingClientRect();
    let { left, top, right, bottom } = box;
    let fixed = style(element).position === "fixed";
    for (let parent = element.parentElement; parent && !fixed; parent = parent.parentElement) {
      const css = style(parent);
      if (css.overflowX !== "visible" || css.overflowY !== "visible") {
        const clip = parent.getBoundingClientRect();
        if (css.overflowX !== "visible") {
          left = Math.max(left, clip.left);
          right = Math.min(right, clip.right);
        }
        if (css.overflowY !== "visible") {
          top = Math.max(top, clip.top);
          bottom = Math.min(bottom, clip.bottom);
        }
      }
      if (css.position === "fixed") fixed = true;
    }
    left = Math.max(left, viewport.left);
    top = Math.max(top, viewport.top);
    right = Math.min(right, viewport.right);
    bottom = Math.min(bottom, viewport.bottom);
    return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom } : null;
  };
  const samplePoints = (box: { left: number; top: number; right: number; bottom: number }) => {
    const width = box.right - box.left;
    const height = box.bottom - box.top;
    return (
      [
        [0.5, 0.5],
        [0.2, 0.5],
        [0.8, 0.5],
        [0.5, 0.2],
        [0.5, 0.8],
      ] as const
    ).map(([fx, fy]) => [box.left + width * fx, box.top + height * fy] as const);
  };
  /** The element on top at a point, unless it belongs to the element itself, an ancestor, or its label. */
  const coveredBy = (element: Element, x: number, y: number): Element | null => {
    const hit = document.elementFromPoint(x, y);
    if (!hit || element.contains(hit) || hit.contains(element) || isTransient(hit)) return null;
    if (hit instanceof HTMLLabelElement && hit.control === element) return null;
    if (element instanceof HTMLElement && element.id && hit.closest(`label[for="${CSS.escape(element.id)}"]`)) return null;
    return hit;
  };
  const inScrollX = (element: Element) => element.closest("[data-scroll-x]") !== null;

  // 1. The page never scrolls sideways.
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > window.innerWidth + 1) report("page-overflow", "document", `the page is ${pageWidth}px wide in a ${window.innerWidth}px window`);

  const all = [scope, ...scope.querySelectorAll("*")];
  for (const element of all) {
    if (hiddenFromUsers(element) || element.closest("svg, select, option")) continue;
    const css = style(element);
    if (css.display === "none" || css.visibility === "hidden") continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (srOnly(element)) continue;

    // 2. No panel scrolls or clips sideways.
    const overflowX = css.overflowX;
    const extra = element.scrollWidth - element.clientWidth;
    if (extra > 1 && !inScrollX(element)) {
      if (overflowX === "auto" || overflowX === "scroll") {
        report("panel-overflow", describe(element), `scrolls sideways by ${extra}px`);
      } else if (
        (overflowX === "hidden" || overflowX === "clip") &&
        css.textOverflow !== "ellipsis" &&
        element.childElementCount > 0 &&
        element.tagName !== "TEXTAREA" &&
        element.tagName !== "INPUT"
      ) {
        report("panel-overflow", describe(element), `clips ${extra}px of its content on the side`);
      }
    }

    // 3. Text cut only with an ellipsis and a title that holds the whole text.
    const words = text(element);
    if (words) {
      const clippedX = extra > 1 && (overflowX === "hidden" || overflowX === "clip");
      const clamped = css.webkitLineClamp !== "none" && css.webkitLineClamp !== "" && element.scrollHeight - element.clientHeight > 1;
      const titled = element.closest("[title]")?.getAttribute("title") ?? "";
      if ((clippedX && css.textOverflow === "ellipsis") || clamped) {
        if (!titled.replace(/\s+/g, " ").includes(words)) report("cut-text", describe(element), `"${words.slice(0, 60)}" is cut without a title naming it`);
      } else if (clippedX && element.childElementCount === 0 && element.tagName !== "TEXTAREA" && element.tagName !== "INPUT") {
        report("cut-text", describe(element), `"${words.slice(0, 60)}" is cut without an ellipsis`);
      }
    }
  }

  // 4. Interactive elements: on screen, and not covered by another element.
  const interactive = scope.querySelectorAll(
    "a[href], button, input:not([type='hidden']), select, textarea, [role='button'], [role='tab'], [role='radio'], [role='menuitem'], [role='checkbox'], [tabindex]:not([tabindex='-1'])",
  );
  for (const element of interactive) {
    // checkVisibility: what a closed <details> holds is laid out but not shown.
    if (hiddenFromUsers(element) || srOnly(element) || !element.checkVisibility()) continue;
    const css = style(element);
    if (css.display === "none" || css.visibility === "hidden" || css.pointerEvents === "none") continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (!inScrollX(element) && (box.right > window.innerWidth + 1 || box.left < -1)) {
      report("off-screen", describe(element), `reaches from ${Math.round(box.left)}px to ${Math.round(box.right)}px in a ${window.innerWidth}px window`);
    }
    const visible = visibleBox(element);
    if (!visible) continue;
    for (const [x, y] of samplePoints(visible)) {
      const hit = coveredBy(element, x, y);
      if (hit) {
        report("covered", describe(element), `covered by ${describe(hit)}`);
        break;
      }
    }
  }

  // 5. Text is not covered by an element it does not belong to (a menu button over a date, a toast over a field).
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const owner = node.parentElement;
    if (!owner || !node.textContent?.trim() || hiddenFromUsers(owner) || owner.closest("svg, select, option, textarea") || srOnly(owner)) continue;
    const css = style(owner);
    if (css.visibility === "hidden" || css.opacity === "0") continue;
    // Text in a closed <details> keeps a layout box in Chromium (its content is content-visibility: hidden): not shown.
    if (!owner.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      const clip = visibleBox(owner);
      if (!clip) break;
      const left = Math.max(line.left, clip.left);
      const right = Math.min(line.right, clip.right);
      const top = Math.max(line.top, clip.top);
      const bottom = Math.min(line.bottom, clip.bottom);
      if (right - left < 2 || bottom - top < 2) continue;
      const y = (top + bottom) / 2;
      for (const x of [left + 1, (left + right) / 2, right - 1]) {
        const hit = coveredBy(owner, x, y);
        if (hit) {
          report("covered", `text "${text(node).slice(0, 60)}"`, `covered by ${describe(hit)}`);
          break;
        }
      }
    }
  }
  return findings;
}
