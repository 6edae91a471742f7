import { calendarProblemMessage, connectionProblemMessage, type Account, type CalendarAccount, type MailAccount } from "@sage/contracts/accounts";
import { OAUTH_SETUP_TEXTS } from "@sage/contracts/oauth";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { AccountsSection } from "./accounts-section";

const account = (extra: Partial<MailAccount> = {}): MailAccount => ({
  id: 1,
  kind: "mail",
  name: "Work mail",
  status: "syncing",
  lastSyncAt: null,
  error: null,
  counts: { messages: 1240 },
  progress: { processed: 1240, total: 10000 },
  imap: { host: "imap.gmail.com", port: 993, secure: true, user: "me@gmail.com" },
  smtp: null,
  folders: ["INBOX", "Sent"],
  sinceDays: 365,
  address: "me@gmail.com",
  displayName: null,
  auth: null,
  signInUrl: null,
  createdAt: "2026-11-27T05:00:00.000Z",
  ...extra,
});

/** The operator has set up no sign-in: the two buttons say what to set. */
const NO_SIGN_IN = [
  { id: "google", name: "Google", configured: false, setup: OAUTH_SETUP_TEXTS.google },
  { id: "microsoft", name: "Microsoft", configured: false, setup: OAUTH_SETUP_TEXTS.microsoft },
  { id: "oidc", name: "your company", configured: false, setup: OAUTH_SETUP_TEXTS.oidc },
];

const FEED = "http://localhost:3000/api/calendar/Q2FsZW5kYXItZmVlZC10b2tlbi1mb3ItdGVzdHMtMTIz.ics";

const calendar = (extra: Partial<CalendarAccount> = {}): CalendarAccount => ({
  id: 2,
  kind: "calendar",
  name: "Google calendar",
  status: "ok",
  lastSyncAt: "2026-11-27T08:00:00.000Z",
  error: null,
  counts: { events: 3 },
  progress: null,
  caldav: null,
  ics: { host: "calendar.google.com" },
  auth: null,
  signInUrl: null,
  createdAt: "2026-11-27T05:00:00.000Z",
  ...extra,
});

describe("Settings > Accounts", () => {
  it("tests the connection, says what failed in plain words, connects, and shows the sync's progress", async () => {
    let listed: Account[] = [];
    const login = connectionProblemMessage("login", { host: "imap.gmail.com", port: 993 });
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("POST", "/api/accounts/test", Response.json({ ok: false, problem: "login", message: login }))
      .on("POST", "/api/accounts", () => {
        listed = [account()];
        return Response.json(listed[0], { status: 201 });
      });
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Connect a mail account" }));
    await user.type(form.getByLabelText("Account name"), "Work mail");
    await user.type(form.getByLabelText("User name (e-mail address)"), "me@gmail.com");
    await user.type(form.getByLabelText("IMAP server"), "imap.gmail.com");
    await user.type(form.getByLabelText("Password or app password"), "abcd efgh");

    await user.click(form.getByRole("button", { name: "Test connection" }));
    expect(await screen.findByText(login)).toBeTruthy();
    expect(api.requests("POST", "/api/accounts/test")[0]!.body).toEqual({
      kind: "mail",
      name: "Work mail",
      imap: { host: "imap.gmail.com", port: 993, secure: true, user: "me@gmail.com", password: "abcd efgh" },
    });
    expect(api.requests("POST", "/api/accounts")).toHaveLength(0);

    await user.click(form.getByRole("button", { name: "Connect" }));
    expect(await screen.findByText("Synced 1,240 of 10,000 messages")).toBeTruthy();
    expect(api.requests("POST", "/api/accounts")).toHaveLength(1);
    await waitFor(() => expect((form.getByLabelText("Account name") as HTMLInputElement).value).toBe(""));
  });

  it("shows an account's failure and offers Sync now", async () => {
    const error = connectionProblemMessage("folder", { host: "imap.gmail.com", port: 993, folder: "Sent" });
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", Response.json([account({ status: "error", progress: null, error })]))
      .on("POST", "/api/accounts/1/sync", Response.json(account(), { status: 202 }));
    const { user } = renderWithProviders(<AccountsSection />);
    expect(await screen.findByText(error)).toBeTruthy();
    expect(screen.getByText("Failed")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Sync now" }));
    await waitFor(() => expect(api.requests("POST", "/api/accounts/1/sync")).toHaveLength(1));
  });
});

describe("Settings > Accounts: after Connect (issue 52 item 17)", () => {
  it("empties the form and says nothing more about the test of what it held", async () => {
    let listed: Account[] = [];
    const secret = "https://calendar.google.com/calendar/ical/exec%40gmail.com/private-5f2a/basic.ics";
    fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("POST", "/api/accounts/test", Response.json({ ok: true, calendars: ["Google calendar"], events: 3 }))
      .on("POST", "/api/accounts", () => {
        listed = [calendar()];
        return Response.json(listed[0], { status: 201 });
      });
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Connect a calendar" }));
    await user.type(form.getByLabelText("Calendar name"), "Google calendar");
    await user.type(form.getByLabelText("Secret address in iCal format"), secret);
    await user.click(form.getByRole("button", { name: "Test connection" }));
    expect(await form.findByText("Connection works: Google calendar · 3 events.")).toBeTruthy();
    await user.click(form.getByRole("button", { name: "Connect" }));
    expect(await screen.findByText(/Subscription from calendar\.google\.com · 3 events/)).toBeTruthy();
    await waitFor(() => expect((form.getByLabelText("Calendar name") as HTMLInputElement).value).toBe(""));
    // Before: "Connection works: ..." stayed under the emptied form.
    expect(form.queryByText(/^Connection works/)).toBeNull();
  });
});

describe("Settings > Accounts: synced mail not yet searchable (issue 52 item 7)", () => {
  it("says Reading N messages, not Up to date, until what was synced can be found", async () => {
    let reading = 12;
    fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json([account({ status: "ok", progress: null, counts: { messages: 1240, reading } })]));
    renderWithProviders(<AccountsSection />);
    // Before: "Up to date" about 8 s before the last mails could be found.
    expect(await screen.findByText("Reading 12 messages")).toBeTruthy();
    expect(screen.queryByText("Up to date")).toBeNull();
    // The list is read again by itself while messages are being read, and says Up to date once they are searchable.
    reading = 0;
    expect(await screen.findByText("Up to date")).toBeTruthy();
  });
});

describe("Settings > Accounts: a restored account", () => {
  it("asks for the password a backup did not hold, and saves it for both servers", async () => {
    const smtp = { host: "smtp.gmail.com", port: 465, secure: true, user: "me@gmail.com" };
    let listed: Account[] = [account({ status: "password-needed", progress: null, smtp })];
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("PATCH", "/api/accounts/1", () => {
        listed = [account({ smtp })];
        return Response.json(listed[0]);
      });
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Enter the password of Work mail" }));
    expect(screen.getByText("Password needed")).toBeTruthy();
    await user.type(form.getByLabelText("Password or app password"), "new app pass");
    await user.click(form.getByRole("button", { name: "Save password" }));
    expect(await screen.findByText("Synced 1,240 of 10,000 messages")).toBeTruthy();
    expect(api.requests("PATCH", "/api/accounts/1")[0]!.body).toEqual({
      imap: { host: "imap.gmail.com", port: 993, secure: true, user: "me@gmail.com", password: "new app pass" },
      smtp: { ...smtp, password: "new app pass" },
    });
    expect(screen.queryByRole("form", { name: "Enter the password of Work mail" })).toBeNull();
  });
});

describe("Settings > Accounts: calendars", () => {
  it("connects a Google calendar by its secret ICS address, saying first what failed, and lists it with its events", async () => {
    let listed: Account[] = [];
    const notFound = calendarProblemMessage("not-found", "calendar.google.com");
    const secret = "https://calendar.google.com/calendar/ical/exec%40gmail.com/private-5f2a/basic.ics";
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("POST", "/api/accounts/test", Response.json({ ok: false, problem: "not-found", message: notFound }))
      .on("POST", "/api/accounts", () => {
        listed = [calendar()];
        return Response.json(listed[0], { status: 201 });
      });
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Connect a calendar" }));
    await user.type(form.getByLabelText("Calendar name"), "Google calendar");
    await user.type(form.getByLabelText("Secret address in iCal format"), secret);
    await user.click(form.getByRole("button", { name: "Test connection" }));
    expect(await form.findByText(notFound)).toBeTruthy();
    expect(api.requests("POST", "/api/accounts/test")[0]!.body).toEqual({ kind: "calendar", name: "Google calendar", icsUrl: secret });

    await user.click(form.getByRole("button", { name: "Connect" }));
    expect(await screen.findByText(/Subscription from calendar\.google\.com · 3 events/)).toBeTruthy();
    expect(api.requests("POST", "/api/accounts")[0]!.body).toEqual({ kind: "calendar", name: "Google calendar", icsUrl: secret });
    await waitFor(() => expect((form.getByLabelText("Calendar name") as HTMLInputElement).value).toBe(""));
  });

  it("connects a CalDAV server with its user name and password, and says what the test found", async () => {
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", Response.json([]))
      .on("POST", "/api/accounts/test", Response.json({ ok: true, calendars: ["Work", "Home"], events: 14 }));
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Connect a calendar" }));
    await user.click(form.getByLabelText("CalDAV server"));
    await user.type(form.getByLabelText("Calendar name"), "Fastmail");
    await user.type(form.getByLabelText("CalDAV server address"), "https://caldav.fastmail.com/");
    await user.type(form.getByLabelText("User name"), "exec@fastmail.com");
    await user.type(form.getByLabelText("Password or app password"), "app-pass-1");
    await user.click(form.getByRole("button", { name: "Test connection" }));
    expect(await form.findByText("Connection works: Work, Home · 14 events.")).toBeTruthy();
    expect(api.requests("POST", "/api/accounts/test")[0]!.body).toEqual({
      kind: "calendar",
      name: "Fastmail",
      caldav: { url: "https://caldav.fastmail.com/", user: "exec@fastmail.com", password: "app-pass-1" },
    });
  });

  it("shows the reminders calendar address with Copy, and Rotate replaces it after a confirmation", async () => {
    const next = "http://localhost:3000/api/calendar/TmV3LWNhbGVuZGFyLWZlZWQtdG9rZW4tZm9yLXRlc3RzLTQ1.ics";
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", Response.json([]))
      .on("POST", "/api/calendar/feed/rotate", Response.json({ url: next }));
    const { user } = renderWithProviders(<AccountsSection />);
    const address = (await screen.findByLabelText("Reminders calendar address")) as HTMLInputElement;
    await waitFor(() => expect(address.value).toBe(FEED));
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue(undefined);
    try {
      await user.click(screen.getByRole("button", { name: "Copy" }));
      expect(writeText).toHaveBeenCalledWith(FEED);
      expect(await screen.findByText("Address copied.")).toBeTruthy();
    } finally {
      writeText.mockRestore();
    }
    await user.click(screen.getByRole("button", { name: "Rotate" }));
    expect(api.requests("POST", "/api/calendar/feed/rotate")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Make a new address" }));
    await waitFor(() => expect(address.value).toBe(next));
    expect(api.requests("POST", "/api/calendar/feed/rotate")).toHaveLength(1);
  });
});

describe("Settings > Accounts: time zone", () => {
  it("offers the browser's time zone until one is saved, and saves the one chosen", async () => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/accounts", Response.json([]))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("PUT", "/api/calendar/time-zone", Response.json({ timeZone: "Europe/Prague", saved: true }));
    const { user } = renderWithProviders(<AccountsSection />);
    const zone = (await screen.findByLabelText("Your time zone")) as HTMLInputElement;
    await waitFor(() => expect(zone.value).toBe(browser));
    expect(screen.getByText("Calendars are read in UTC until you save yours.")).toBeTruthy();
    await user.clear(zone);
    await user.type(zone, "Europe/Prague");
    await user.click(screen.getByRole("button", { name: "Save time zone" }));
    expect(await screen.findByText("Calendars and free time are read in Europe/Prague.")).toBeTruthy();
    expect(api.requests("PUT", "/api/calendar/time-zone")[0]!.body).toEqual({ timeZone: "Europe/Prague" });
  });
});

describe("Settings > Accounts: an address book", () => {
  it("sends the CardDAV server and login, says what the test found, and empties the form once connected", async () => {
    let listed: Account[] = [];
    const carddav = { url: "https://contacts.example.com/dav/", user: "exec", password: "app-password" };
    const api = fakeApi()
      .on("GET", "/api/oauth/providers", Response.json(NO_SIGN_IN))
      .on("GET", "/api/calendar/feed", Response.json({ url: FEED }))
      .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("POST", "/api/accounts/test", Response.json({ ok: true, addressBooks: ["Contacts", "Board"], contacts: 212 }))
      .on("POST", "/api/accounts", () => {
        listed = [
          {
            id: 3,
            kind: "contacts",
            name: "Work contacts",
            status: "ok",
            lastSyncAt: "2026-11-27T08:00:00.000Z",
            error: null,
            counts: { contacts: 212 },
            progress: null,
            carddav: { url: carddav.url, user: carddav.user },
            auth: null,
            signInUrl: null,
            createdAt: "2026-11-27T05:00:00.000Z",
          },
        ];
        return Response.json(listed[0], { status: 201 });
      });
    const { user } = renderWithProviders(<AccountsSection />);
    const form = within(await screen.findByRole("form", { name: "Connect an address book" }));
    await user.type(form.getByLabelText("Address book name"), "Work contacts");
    await user.type(form.getByLabelText("CardDAV server address"), carddav.url);
    await user.type(form.getByLabelText("User name"), carddav.user);
    await user.type(form.getByLabelText("Password or app password"), carddav.password);
    await user.click(form.getByRole("button", { name: "Test connection" }));
    expect(await form.findByText("Connection works: Contacts, Board · 212 contacts.")).toBeTruthy();
    expect(api.requests("POST", "/api/accounts/test")[0]!.body).toEqual({ kind: "contacts", name: "Work contacts", carddav });
    // Any edit forgets what the last test found.
    await user.type(form.getByLabelText("Address book name"), " (board)");
    expect(form.queryByText(/^Connection works/)).toBeNull();
    await user.click(form.getByRole("button", { name: "Connect" }));
    await waitFor(() => expect((form.getByLabelText("Address book name") as HTMLInputElement).value).toBe(""));
    expect(api.requests("POST", "/api/accounts")[0]!.body).toEqual({ kind: "contacts", name: "Work contacts (board)", carddav });
  });
});
