import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";

// The service worker is what shows a push with no SAGE tab open; the config blocks workers for every other test.
test.use({ serviceWorkers: "allow" });

/** The page's worker registration, once it controls the page (a push goes to the registration, not the tab). */
async function controlledPage(page: Page) {
  await login(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * Delivers a push message as the browser's push service would: a trusted `push` event in the worker (DevTools),
 * to the registration of the page's origin. Delivery to a worker that is just starting is sometimes dropped by
 * the browser, so it is sent again (at most three times) until `arrived` says the notification is there.
 */
async function deliverPush(context: BrowserContext, page: Page, data: string, arrived: () => Promise<boolean>) {
  const cdp = await context.newCDPSession(page);
  type Registration = { registrationId: string; scopeURL: string; isDeleted: boolean };
  const registrations: Registration[] = [];
  const origin = new URL(page.url()).origin;
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event: { registrations: Registration[] }) => {
    registrations.push(...event.registrations.filter((registration) => !registration.isDeleted && registration.scopeURL.startsWith(origin)));
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.length).toBeGreaterThan(0);
  for (let attempt = 0; attempt < 3; attempt++) {
    await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId: registrations.at(-1)!.registrationId, data });
    const shownNow = await expect
      .poll(arrived, { timeout: 30_000 })
      .toBe(true)
      .then(() => true)
      .catch(() => false);
    if (shownNow) break;
  }
  await cdp.detach();
}

const shown = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((notice) => ({ title: notice.title, body: notice.body, url: notice.data?.url as string }));
  });

test.describe("Push notifications", () => {
  // A worker starting for a push on a loaded machine, and up to three deliveries: more than the default 30 s.
  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(["notifications"], { origin: baseURL! });
  });

  test("a pushed reminder is shown as a notification, and clicking it opens SAGE at its conversation", async ({ page, context }) => {
    await controlledPage(page);
    const titled = (title: string) => async () => (await shown(page)).some((notice) => notice.title === title);
    await deliverPush(
      context,
      page,
      JSON.stringify({ kind: "reminders", title: "Call the auditor", body: "Your reminder is due.", url: "/conversations/42" }),
      titled("Call the auditor"),
    );
    expect(await shown(page)).toEqual([{ title: "Call the auditor", body: "Your reminder is due.", url: "/conversations/42" }]);

    // A click on the notification (what the operating system reports) opens SAGE at the pushed page.
    const worker = context.serviceWorkers()[0]!;
    await worker.evaluate(async () => {
      // The worker's own globals (the e2e project's types are a window's).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notice] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notice! }));
    });
    await expect(page).toHaveURL(/\/conversations\/42$/);
    await expect.poll(() => shown(page)).toEqual([]);
  });

  test("a push that is not SAGE's JSON, or points outside SAGE, still says something and opens only SAGE", async ({ page, context }) => {
    await controlledPage(page);
    const titled = (title: string) => async () => (await shown(page)).some((notice) => notice.title === title);
    await deliverPush(context, page, "not json", titled("SAGE"));
    expect(await shown(page)).toEqual([{ title: "SAGE", body: "", url: "/conversations" }]);
    await deliverPush(context, page, JSON.stringify({ kind: "runs", title: "Markets", body: "Done.", url: "//evil.example/x" }), titled("Markets"));
    expect((await shown(page)).find((notice) => notice.title === "Markets")?.url).toBe("/conversations");
  });
});
