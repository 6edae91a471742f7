import { createRequire } from "node:module";
import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";

export interface AxeFinding {
  rule: string;
  impact: string;
  target: string;
  help: string;
}

/** Impacts that fail a run; moderate and minor ones are reported only. */
export const BLOCKING_IMPACTS = ["serious", "critical"];

const axeSource: string = createRequire(import.meta.url)("axe-core").source;

/**
 * Loads axe-core into every page of the context once, at document start, so that each audit runs the rules
 * without sending the whole library again (AxeBuilder then only runs it, in the page itself).
 */
export async function preloadAxe(context: BrowserContext) {
  await context.addInitScript({ content: axeSource });
}

/**
 * axe-core's WCAG 2.x A/AA and best-practice rules on what is on screen; with a dialog, sheet or menu open,
 * only that layer (the page behind it is inert and was checked on its own). Needs preloadAxe on the context.
 */
export async function auditAccessibility(page: Page): Promise<AxeFinding[]> {
  const layer = await page.evaluate(() => {
    const open = [
      ...document.querySelectorAll("[role='dialog'][data-state='open'], [role='alertdialog'][data-state='open'], [role='menu'][data-state='open']"),
    ];
    const top = open.at(-1);
    if (!top) return null;
    top.setAttribute("data-audit-layer", "");
    return "[data-audit-layer]";
  });
  const builder = new AxeBuilder({ page, axeSource: "void 0" })
    .setLegacyMode()
    // Only violations are read: axe then skips listing every passing node, most of its run time.
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  if (layer) builder.include(layer);
  const results = await builder.analyze();
  if (layer) await page.evaluate(() => document.querySelectorAll("[data-audit-layer]").forEach((element) => element.removeAttribute("data-audit-layer")));
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      rule: violation.id,
      impact: node.impact ?? violation.impact ?? "unknown",
      target: node.target.join(" "),
      help: violation.help,
    })),
  );
}
