import { CHANNEL_TEXTS, type Channel, type NotificationTargets } from "@sage/contracts/channels";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorReply, fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { ChannelsSection } from "./channels-section";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ";
const EXPIRES = new Date(Date.now() + 10 * 60_000).toISOString();

const channel = (extra: Partial<Channel> = {}): Channel => ({
  id: 7,
  kind: "telegram",
  status: "unpaired",
  name: "@SageBot",
  error: null,
  pairingExpiresAt: EXPIRES,
  allowGroup: false,
  conversationId: null,
  refused: { count: 0, lastAt: null },
  unsent: 0,
  createdAt: "2026-12-06T09:00:00.000Z",
  ...extra,
});

describe("Settings > Channels", () => {
  it("connects a Telegram bot, shows its one-time code until the chat sends it, then the chat and who was refused", async () => {
    let listed: Channel[] = [];
    let targets: NotificationTargets = { briefing: ["push"], reminders: ["push"], runs: ["push"], approvals: ["push"] };
    const api = fakeApi()
      .on("GET", "/api/channels", () => Response.json({ channels: listed }))
      .on("GET", "/api/notifications/targets", () => Response.json(targets))
      .on("POST", "/api/channels", () => {
        listed = [channel()];
        return Response.json(
          {
            id: 7,
            kind: "telegram",
            status: "unpaired",
            pairingCode: "K7M2Q9XA",
            pairingExpiresAt: EXPIRES,
            pairingHint: "https://t.me/SageBot?start=K7M2Q9XA",
          },
          { status: 201 },
        );
      })
      .on("PUT", "/api/notifications/targets", ({ body }) => {
        targets = body as NotificationTargets;
        return Response.json(targets);
      });
    const { user } = renderWithProviders(<ChannelsSection mailAccounts={[]} />);
    expect(await screen.findByText("No channel is connected yet.")).toBeTruthy();
    const form = within(screen.getByRole("form", { name: "Connect a channel" }));
    await user.type(form.getByLabelText("Bot token"), TOKEN);
    await user.click(form.getByRole("button", { name: "Connect" }));

    expect(await screen.findByLabelText("Pairing code")).toHaveProperty("textContent", "K7M2Q9XA");
    expect(screen.getByRole("link", { name: "https://t.me/SageBot?start=K7M2Q9XA" })).toBeTruthy();
    expect(screen.getByText("Waiting for the code")).toBeTruthy();
    expect(api.requests("POST", "/api/channels")[0]!.body).toEqual({ kind: "telegram", token: TOKEN });
    // Only connected chats are places to deliver to.
    expect(within(screen.getByTestId("targets-briefing")).getAllByRole("checkbox")).toHaveLength(1);

    // The chat sent the code: the list shows it paired (it is polled while a code waits), and the code is gone.
    listed = [channel({ status: "paired", chat: { title: "Anna Berg", group: false }, conversationId: 12, refused: { count: 2, lastAt: null } })];
    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(screen.queryByLabelText("Pairing code")).toBeNull();
    expect(screen.getByText("Anna Berg")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open the conversation" }).getAttribute("href")).toBe("/conversations/12");
    expect(screen.getByTestId("channel-refused").textContent).toMatch(/^2 messages from other people or chats refused, never read by the assistant/);

    // The briefing goes to the chat as well as to push.
    await user.click(await within(screen.getByTestId("targets-briefing")).findByRole("checkbox", { name: "@SageBot · Telegram" }));
    await waitFor(() =>
      expect(api.requests("PUT", "/api/notifications/targets").at(-1)!.body).toEqual({
        briefing: ["push", "channel:7"],
        reminders: ["push"],
        runs: ["push"],
        approvals: ["push"],
      }),
    );
  });

  it("says in plain words why a token was refused, and keeps what was typed", async () => {
    fakeApi()
      .on("GET", "/api/channels", Response.json({ channels: [] }))
      .on("GET", "/api/notifications/targets", Response.json({ briefing: ["push"], reminders: ["push"], runs: ["push"], approvals: ["push"] }))
      .on("POST", "/api/channels", errorReply(400, "Bad Request", CHANNEL_TEXTS.tokenRefused("Telegram"), "token_refused"));
    const { user } = renderWithProviders(<ChannelsSection mailAccounts={[]} />);
    const form = within(await screen.findByRole("form", { name: "Connect a channel" }));
    await user.type(form.getByLabelText("Bot token"), TOKEN);
    await user.click(form.getByRole("button", { name: "Connect" }));
    expect(await screen.findByText(CHANNEL_TEXTS.tokenRefused("Telegram"))).toBeTruthy();
    expect((form.getByLabelText("Bot token") as HTMLInputElement).value).toBe(TOKEN);
  });

  it("connects an e-mail address of a mail account, and Slack over the Events API with its signing secret", async () => {
    const api = fakeApi()
      .on("GET", "/api/channels", Response.json({ channels: [] }))
      .on("GET", "/api/notifications/targets", Response.json({ briefing: ["push"], reminders: ["push"], runs: ["push"], approvals: ["push"] }))
      .on("POST", "/api/channels", ({ body }) =>
        Response.json(
          {
            id: 3,
            kind: (body as { kind: string }).kind,
            status: "unpaired",
            pairingCode: "ABCDEFGH",
            pairingExpiresAt: EXPIRES,
            pairingHint: "Write to exec+sage@example.com from your own address with ABCDEFGH as the subject.",
          },
          { status: 201 },
        ),
      );
    const { user } = renderWithProviders(<ChannelsSection mailAccounts={[{ id: 4, name: "Work mail", address: "exec@example.com" }]} />);
    const form = within(await screen.findByRole("form", { name: "Connect a channel" }));
    await user.click(form.getByRole("radio", { name: "E-mail" }));
    await user.selectOptions(form.getByLabelText("Mail account"), "4");
    await user.type(form.getByLabelText("Address to write to SAGE at"), "exec+sage@example.com");
    await user.click(form.getByRole("button", { name: "Connect" }));
    await waitFor(() => expect(api.requests("POST", "/api/channels")[0]?.body).toEqual({ kind: "email", accountId: 4, address: "exec+sage@example.com" }));

    await user.click(form.getByRole("radio", { name: "Slack" }));
    await user.type(form.getByLabelText("Bot token"), "xoxb-1234567890-abcdefghij");
    await user.click(form.getByRole("radio", { name: "Events API (Slack posts to SAGE)" }));
    await user.type(form.getByLabelText("Signing secret"), "8f742231b10e8888abcd990000085a5e");
    await user.click(form.getByRole("button", { name: "Connect" }));
    await waitFor(() =>
      expect(api.requests("POST", "/api/channels")[1]?.body).toEqual({
        kind: "slack",
        botToken: "xoxb-1234567890-abcdefghij",
        signingSecret: "8f742231b10e8888abcd990000085a5e",
      }),
    );
  });
});
