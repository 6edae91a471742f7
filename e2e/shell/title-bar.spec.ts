import { expect, test } from "@playwright/test";

test.describe("title bar", () => {
  test("shows the app title and a close button that logs without a desktop bridge", async ({ page }) => {
    await page.goto("/login");
    const bar = page.getByRole("banner");
    await expect(bar.getByText("SAGE", { exact: true })).toBeVisible();
    const messages: string[] = [];
    page.on("console", (message) => messages.push(message.text()));
    await bar.getByRole("button", { name: "Close window" }).click();
    await expect.poll(() => messages.some((text) => /close/i.test(text))).toBe(true);
  });

  test("the close button calls the desktop close-window function when it exists", async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { sageDesktop: { closeWindow: () => void } }).sageDesktop = {
        closeWindow: () => {
          (window as unknown as { closed_by_test: boolean }).closed_by_test = true;
        },
      };
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Close window" }).click();
    expect(await page.evaluate(() => (window as unknown as { closed_by_test?: boolean }).closed_by_test)).toBe(true);
  });

  test("the title bar is a drag region and its button is not", async ({ page }) => {
    await page.goto("/login");
    const region = await page.getByRole("banner").evaluate((el) => getComputedStyle(el).getPropertyValue("-webkit-app-region"));
    const buttonRegion = await page.getByRole("button", { name: "Close window" }).evaluate((el) => getComputedStyle(el).getPropertyValue("-webkit-app-region"));
    expect(region).toBe("drag");
    expect(buttonRegion).toBe("no-drag");
  });
});
