import type { Page, TestInfo } from "@playwright/test";
import { auditAccessibility, BLOCKING_IMPACTS, type AxeFinding } from "./accessibility-audit.ts";
import { auditLayout, type LayoutFinding } from "./layout-audit.ts";

export interface ScreenReport {
  screen: string;
  /** How long the layout audit, axe and the screenshot took, in milliseconds. */
  ms: { layout: number; axe: number; screenshot: number };
  layout: LayoutFinding[];
  axe: AxeFinding[];
}

/**
 * Audits screens one after another in one page: layout and axe findings per screen, and a screenshot of each
 * kept with the run's results (test-results/, never committed).
 */
export function screenAuditor(page: Page, testInfo: TestInfo, label: string) {
  const reports: ScreenReport[] = [];
  return {
    reports,
    async check(screen: string) {
      // Nothing hovered: a tooltip is not part of the screen.
      await page.mouse.move(0, 0);
      let started = Date.now();
      const since = () => -started + (started = Date.now());
      const layout = await auditLayout(page);
      const layoutMs = since();
      const axe = await auditAccessibility(page);
      const axeMs = since();
      await page.screenshot({ path: testInfo.outputPath(`${label}-${screen}.png`), animations: "disabled", caret: "hide" });
      reports.push({ screen, ms: { layout: layoutMs, axe: axeMs, screenshot: since() }, layout, axe });
    },
    /** Every layout finding, and every axe violation of serious or critical impact, one line each. */
    failures(): string[] {
      return reports.flatMap(({ screen, layout, axe }) => [
        ...layout.map((finding) => `${screen}: ${finding.rule}: ${finding.target} ${finding.detail}`),
        ...axe.filter((finding) => BLOCKING_IMPACTS.includes(finding.impact)).map((finding) => `${screen}: axe ${finding.impact} ${finding.rule}: ${finding.target} (${finding.help})`),
      ]);
    },
  };
}
