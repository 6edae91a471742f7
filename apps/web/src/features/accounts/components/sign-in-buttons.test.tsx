import type { MailAccount } from "@sage/contracts/accounts";
import { OAUTH_SETUP_TEXTS, SIGN_IN_RESULT_TEXTS } from "@sage/contracts/oauth";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { AccountsSection } from "./accounts-section";

const PROVIDERS = [
  { id: "google", name: "Google", configured: true, setup: null },
  { id: "microsoft", name: "Microsoft", configured: false, setup: OAUTH_SETUP_TEXTS.microsoft },
  { id: "oidc", name: "Acme", configured: true, setup: null },
];

const signedIn = (extra: Partial<MailAccount> = {}): MailAccount => ({
  id: 7,
  kind: "mail",
  name: "exec@example.com",
  status: "ok",
  lastSyncAt: "2026-11-27T08:00:00.000Z",
  error: null,
  counts: { messages: 1240 },
  progress: null,
  imap: { host: "imap.gmail.com", port: 993, secure: true, user: "exec@example.com" },
  smtp: { host: "smtp.gmail.com", port: 465, secure: true, user: "exec@example.com" },
  folders: ["INBOX", "Sent"],
  sinceDays: 365,
  address: "exec@example.com",
  displayName: "Erika Exec",
  auth: { provider: "google", user: "exec@example.com" },
  signInUrl: "/api/oauth/google/start?account=7",
  createdAt: "2026-11-27T05:00:00.000Z",
  ...extra,
});

const api = (accounts: () => MailAccount[]) =>
  fakeApi()
    .on("GET", "/api/oauth/providers", Response.json(PROVIDERS))
    .on("GET", "/api/calendar/feed", Response.json({ url: "http://localhost/api/calendar/x.ics" }))
    .on("GET", "/api/calendar/time-zone", Response.json({ timeZone: "UTC", saved: false }))
    .on("GET", "/api/accounts", () => Response.json(accounts()));

afterEach(() => window.history.replaceState({}, "", "/"));

describe("Settings > Accounts: Sign in with Google and Microsoft", () => {
  it("signs in with one click, and says what the operator must set for a provider not set up", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    const fake = api(() => []).on("POST", "/api/accounts", () =>
      Response.json(signedIn({ status: "sign-in-needed", auth: { provider: "google", user: null }, name: "Google mail" }), { status: 201 }),
    );
    const { user } = renderWithProviders(<AccountsSection />);
    const buttons = within(await screen.findByRole("region", { name: "Sign in to connect mail and calendar" }));
    const microsoft = await buttons.findByRole("button", { name: "Sign in with Microsoft" });
    expect((microsoft as HTMLButtonElement).disabled).toBe(true);
    expect(buttons.getByText(OAUTH_SETUP_TEXTS.microsoft)).toBeTruthy();
    await user.click(buttons.getByRole("button", { name: "Sign in with Google" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/api/oauth/google/start?account=7"));
    expect(fake.requests("POST", "/api/accounts")[0]!.body).toEqual({ kind: "mail", auth: { provider: "google" } });
  });

  it("the company's sign-in asks for its mail server first", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    const fake = api(() => []).on("POST", "/api/accounts", () =>
      Response.json(signedIn({ status: "sign-in-needed", auth: { provider: "oidc", user: null }, signInUrl: "/api/oauth/oidc/start?account=7" }), {
        status: 201,
      }),
    );
    const { user } = renderWithProviders(<AccountsSection />);
    await user.click(await screen.findByRole("button", { name: "Sign in with Acme" }));
    const form = within(screen.getByRole("form", { name: "Sign in with Acme" }));
    await user.type(form.getByLabelText("IMAP server"), "mail.acme.example");
    await user.click(form.getByRole("button", { name: "Sign in with Acme" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/api/oauth/oidc/start?account=7"));
    expect(fake.requests("POST", "/api/accounts")[0]!.body).toEqual({
      kind: "mail",
      auth: { provider: "oidc" },
      calendar: false,
      imap: { host: "mail.acme.example", port: 993, secure: true },
    });
  });

  it("shows who is signed in, and Sign in again when the sign-in ended, keeping the mail", async () => {
    api(() => [signedIn({ status: "sign-in-needed" })]);
    renderWithProviders(<AccountsSection />);
    expect(await screen.findByText("exec@example.com, signed in with Google · 1,240 messages", { exact: false })).toBeTruthy();
    expect(screen.getByText("Sign-in needed")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in again" }).getAttribute("href")).toBe("/api/oauth/google/start?account=7");
    expect(screen.queryByRole("form", { name: /Enter the password/ })).toBeNull();
  });

  it("says how the sign-in ended when the provider sends the browser back", async () => {
    window.history.replaceState({}, "", "/settings?section=accounts&signIn=cancelled");
    api(() => []);
    renderWithProviders(<AccountsSection />);
    expect(await screen.findByText(SIGN_IN_RESULT_TEXTS.cancelled)).toBeTruthy();
  });
});
