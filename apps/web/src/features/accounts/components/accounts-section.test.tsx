// @vitest-environment happy-dom
import { connectionProblemMessage, type Account, type MailAccount } from "@sage/contracts/accounts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
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
  createdAt: "2026-11-27T05:00:00.000Z",
  ...extra,
});

describe("Settings > Accounts", () => {
  it("tests the connection, says what failed in plain words, connects, and shows the sync's progress", async () => {
    let listed: Account[] = [];
    const login = connectionProblemMessage("login", { host: "imap.gmail.com", port: 993 });
    const api = fakeApi()
      .on("GET", "/api/accounts", () => Response.json(listed))
      .on("POST", "/api/accounts/test", Response.json({ ok: false, problem: "login", message: login }))
      .on("POST", "/api/accounts", () => {
        listed = [account()];
        return Response.json(listed[0], { status: 201 });
      });
    const { user } = renderWithProviders(<AccountsSection />);
    await user.type(await screen.findByLabelText("Account name"), "Work mail");
    await user.type(screen.getByLabelText("User name (e-mail address)"), "me@gmail.com");
    await user.type(screen.getByLabelText("IMAP server"), "imap.gmail.com");
    await user.type(screen.getByLabelText("Password or app password"), "abcd efgh");

    await user.click(screen.getByRole("button", { name: "Test connection" }));
    expect(await screen.findByText(login)).toBeTruthy();
    expect(api.requests("POST", "/api/accounts/test")[0]!.body).toEqual({
      kind: "mail",
      name: "Work mail",
      imap: { host: "imap.gmail.com", port: 993, secure: true, user: "me@gmail.com", password: "abcd efgh" },
    });
    expect(api.requests("POST", "/api/accounts")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Connect" }));
    expect(await screen.findByText("Synced 1,240 of 10,000 messages")).toBeTruthy();
    expect(api.requests("POST", "/api/accounts")).toHaveLength(1);
    await waitFor(() => expect((screen.getByLabelText("Account name") as HTMLInputElement).value).toBe(""));
  });

  it("shows an account's failure and offers Sync now", async () => {
    const error = connectionProblemMessage("folder", { host: "imap.gmail.com", port: 993, folder: "Sent" });
    const api = fakeApi()
      .on("GET", "/api/accounts", Response.json([account({ status: "error", progress: null, error })]))
      .on("POST", "/api/accounts/1/sync", Response.json(account(), { status: 202 }));
    const { user } = renderWithProviders(<AccountsSection />);
    expect(await screen.findByText(error)).toBeTruthy();
    expect(screen.getByText("Failed")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Sync now" }));
    await waitFor(() => expect(api.requests("POST", "/api/accounts/1/sync")).toHaveLength(1));
  });
});
