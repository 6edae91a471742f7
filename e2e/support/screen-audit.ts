import type { Page, TestInfo } from "@playwright/test";
import { auditAccessibility, BLOCKING_IMPACTS, type AxeFinding } from "./accessibility-audit.ts";
import { auditLayout, type LayoutFinding } from "./layout-audit.ts";

export interface ScreenReport {
  screen: string;
  /** When the check began (ms after the auditor was made) and how long the layout audit, axe and the screenshot took. */
  ms: { at: number; layout: number; axe: number; screenshot: number };
  layout: LayoutFinding[];
  /** Findings seen once and gone a moment later (a frame mid-render): kept for the reviewer, not failed on. */
  transient: LayoutFinding[];
  axe: AxeFinding[];
}

/** Screenshots of every screen for a reviewer: always outside CI, and in CI with SAGE_E2E_SCREENSHOTS=1. */
export const SCREENSHOTS = process.env.SAGE_E2E_SCREENSHOTS === "1" || !process.env.CI;

const key = (finding: LayoutFinding) => `${finding.rule}|${finding.target}|${finding.detail}`;

/**
 * Layout findings that are still there once the screen has settled: a finding is checked again after a moment,
 * so a frame caught mid-render on a loaded machine is not reported, while a lasting defect always is.
 */
async function settledLayoutFindings(page: Page): Promise<{ layout: LayoutFinding[]; transient: LayoutFinding[] }> {
  const first = await auditLayout(page);
  if (first.length === 0) return { layout: first, transient: [] };
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(resolve)), 300)));
  const lasting = new Set((await auditLayout(page)).map(key));
  return { layout: first.filter((finding) => lasting.has(key(finding))), transient: first.filter((finding) => !lasting.has(key(finding))) };
}

/**
 * Audits screens one after another in one page: layout and axe findings per screen, and a screenshot of each
 * kept with the run's results (test-results/, never committed).
 */
export function screenAuditor(page: Page, testInfo: TestInfo, label: string) {
  const reports: ScreenReport[] = [];
  const start = Date.now();
  return {
    reports,
    async check(screen: string) {
      // Nothing hovered: a tooltip is not part of the screen.
      await page.mouse.move(0, 0);
      let started = Date.now();
      const at = started - start;
      const since = () => -started + (started = Date.now());
      const { layout, transient } = await settledLayoutFindings(page);
      const layoutMs = since();
      const axe = await auditAccessibility(page);
      const axeMs = since();
      // JPEG: a fraction of PNG's encoding time, and plenty for a reviewer's eye. CI keeps no results, so it takes
      // none unless asked (a sixth of a walk's time); a failing screen is still described by its findings.
      if (SCREENSHOTS)
        await page.screenshot({ path: testInfo.outputPath(`${label}-${screen}.jpeg`), type: "jpeg", quality: 80, animations: "disabled", caret: "hide" });
      reports.push({ screen, ms: { at, layout: layoutMs, axe: axeMs, screenshot: since() }, layout, transient, axe });
    },
    /** Every layout finding, and every axe violation of serious or critical impact, one line each. */
    failures(): string[] {
      return reports.flatMap(({ screen, layout, axe }) => [
        ...layout.map((finding) => `${screen}: ${finding.rule}: ${finding.target} ${finding.detail}`),
        ...axe
          .filter((finding) => BLOCKING_IMPACTS.includes(finding.impact))
          .map((finding) => `${screen}: axe ${finding.impact} ${finding.rule}: ${finding.target} (${finding.help})`),
      ]);
    },
  };
}
