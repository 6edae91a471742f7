import { writeFileSync } from "node:fs";
import path from "node:path";
import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startMcpHttpServer } from "@sage/testkit/mcp-http-test-server";
import { startSlackServer, type SlackPosted, type SlackTestServer } from "@sage/testkit/slack-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let gemini: FakeGemini;
let remote: Awaited<ReturnType<typeof startMcpHttpServer>>;
beforeAll(async () => {
  gemini = await startFakeGemini();
  remote = await startMcpHttpServer({ token: "slack-token" });
});
afterAll(async () => {
  await gemini.close();
  await remote.close();
});

let t: TestApp;
let cookie: string;
let slack: SlackTestServer;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await t?.close();
  await slack?.stop();
  temp?.remove();
});

const api = (method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const channels = async () => (await api("GET", "/api/channels")).json().channels;
const echoed = () => remote.calls.filter((call) => call.startsWith("echo ")).map((call) => call.slice(5));

async function start(mode: "socket" | "http") {
  gemini.reset();
  remote.calls.length = 0;
  temp = makeTempDir();
  slack = await startSlackServer({ mode });
  const configPath = path.join(temp.dir, "mcp.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { remote: { url: remote.url, headers: { Authorization: "Bearer slack-token" } } } }));
  t = await createTestApp({
    env: {
      GEMINI_API_KEY: "slack-key",
      GEMINI_BASE_URL: gemini.baseUrl,
      SAGE_EMBEDDER: "none",
      SAGE_MCP_CONFIG: configPath,
      SAGE_SLACK_API_URL: slack.apiUrl,
      SAGE_PUBLIC_URL: "https://sage.example.com",
    },
  });
  cookie = await t.login();
}

/** Connects the app and pairs Anna's direct messages with it. */
async function pairAnna(input: Record<string, string>) {
  const created = await api("POST", "/api/channels", { kind: "slack", botToken: slack.botToken, ...input });
  expect(created.statusCode, created.body).toBe(201);
  const { id, pairingCode } = created.json();
  if (slack.mode === "http") {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    slack.eventsUrl = `${address}/api/channels/${id}/slack-events`;
  }
  const anna = slack.user({ userId: "U0ANNA001", name: "anna", realName: "Anna Berg" });
  await anna.say(pairingCode);
  await slack.waitFor(() => slack.posted(anna.channel).find((message) => message.text.includes("connected to SAGE")));
  return { id, anna };
}

const card = () => slack.waitFor(() => slack.posted().find((message) => message.buttons.length > 0));

describe("a Slack channel over Socket Mode", () => {
  it("checks both tokens, pairs by the code in a direct message, refuses anyone else, and answers in mrkdwn", async () => {
    await start("socket");
    const refused = await api("POST", "/api/channels", { kind: "slack", botToken: "xoxb-1-not-a-token-slack-knows", appToken: slack.appToken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(CHANNEL_TEXTS.tokenRefused("Slack"));
    // The bot token where the app-level token belongs cannot open a socket.
    expect((await api("POST", "/api/channels", { kind: "slack", botToken: slack.botToken, appToken: `xapp-${slack.botToken.slice(5)}` })).statusCode).toBe(400);
    expect((await api("POST", "/api/channels", { kind: "slack", botToken: slack.botToken })).json().error).toBe(CHANNEL_TEXTS.slackMode);

    const { anna } = await pairAnna({ appToken: slack.appToken });
    expect((await channels())[0]).toMatchObject({ kind: "slack", status: "paired", name: "@sage in Acme", chat: { title: "Anna Berg", group: false } });

    const boris = slack.user({ userId: "U0BORIS01", name: "boris", realName: "Boris" });
    await boris.say("What is Anna working on?");
    await slack.waitFor(() => slack.posted(boris.channel).find((message) => message.text === CHANNEL_TEXTS.refused));
    const room = slack.user({ userId: "U0CARLA01", name: "carla", realName: "Carla", channel: "C0BOARD01", channelType: "channel" });
    await room.say("@sage summarise the board pack");
    await expect.poll(async () => (await channels())[0].refused.count).toBe(2);
    expect(gemini.requests).toHaveLength(0);

    gemini.script({ text: "Revenue grew **12%** (Q3 < Q2 & rising); see [the memo](https://example.com/m?a=1&b=2)." });
    await anna.say("How did revenue do? Compare <Q2> & Q3");
    const answer = await slack.waitFor(() => slack.posted(anna.channel).find((message) => message.text.startsWith("Revenue")));
    expect(answer.text).toBe("Revenue grew *12%* (Q3 &lt; Q2 &amp; rising); see <https://example.com/m?a=1&amp;b=2|the memo>.");
    // The model read the user's words unescaped, as typed.
    expect(gemini.requests.at(-1)!.body.contents.at(-1).parts[0].text).toMatch(/^How did revenue do\? Compare <Q2> & Q3/);
    // Every envelope was acknowledged.
    await slack.waitFor(() => slack.unacknowledged().length === 0);
  });

  it("shows a card with Block Kit buttons, runs it on the paired person's Approve, updates it, and waits out a 429", async () => {
    await start("socket");
    expect((await api("PATCH", "/api/tools/settings", { server: "remote", tool: "echo", ask: true })).statusCode).toBe(200);
    const { anna } = await pairAnna({ appToken: slack.appToken });
    gemini.script({ functionCalls: [{ name: "remote__echo", args: { text: "Book the board room" } }] }, { text: "Booked." });
    slack.failNext("chat.postMessage", 1);
    await anna.say("Book the board room");
    const sent: SlackPosted = await card();
    expect(sent.blocks[0]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect(sent.buttons).toEqual([
      { text: CHANNEL_TEXTS.approve, value: expect.stringMatching(/^ap:y:/), style: "primary", url: undefined },
      { text: CHANNEL_TEXTS.decline, value: expect.stringMatching(/^ap:n:/), style: "danger", url: undefined },
    ]);
    // The card's first send was refused with Retry-After: 1, and sent again a second later.
    const posts = slack.calls.filter((call) => call.method === "chat.postMessage" && String(call.args.text).includes(CHANNEL_TEXTS.cardTitle));
    expect(posts).toHaveLength(2);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(950);

    await slack.user({ userId: "U0BORIS01", name: "boris", realName: "Boris" }).press(sent, CHANNEL_TEXTS.approve);
    await expect.poll(async () => (await channels())[0].refused.count).toBe(1);
    expect(echoed()).toEqual([]);

    await anna.press(sent, CHANNEL_TEXTS.approve);
    await slack.waitFor(() => slack.posted(anna.channel).find((message) => message.text === "Booked."));
    expect(echoed()).toEqual(["Book the board room"]);
    const updated = await slack.waitFor(() => slack.posted().find((message) => message.ts === sent.ts && message.buttons.length === 0));
    expect(updated.text).toMatch(new RegExp(`\\*${CHANNEL_TEXTS.approved}\\*$`));
    expect(slack.calls.find((call) => call.method === "chat.update")!.token).toBe(slack.botToken);
  });
});

describe("a Slack channel over the Events API", () => {
  it("takes only requests signed with its signing secret, answers the URL check, and runs turns from signed events", async () => {
    await start("http");
    const { id, anna } = await pairAnna({ signingSecret: slack.signingSecret });
    const body = JSON.stringify({ type: "url_verification", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    const post = (payload: string, headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: `/api/channels/${id}/slack-events`, payload, headers: { "content-type": "application/json", ...headers } });
    expect((await post(body, slack.sign(body))).json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    // A wrong signature, a stale timestamp (replay), no signature: 401, nothing read.
    expect((await post(body, { ...slack.sign(body), "x-slack-signature": `v0=${"0".repeat(64)}` })).statusCode).toBe(401);
    expect((await post(body, slack.sign(body, Math.floor(Date.now() / 1000) - 600))).statusCode).toBe(401);
    expect((await post(body, {})).json()).toEqual({ error: CHANNEL_TEXTS.badSignature, code: "bad_signature" });

    gemini.script({ text: "The offsite is on 12 March." });
    await anna.say("When is the offsite?");
    await slack.waitFor(() => slack.posted(anna.channel).find((message) => message.text === "The offsite is on 12 March."));
    expect((await channels())[0]).toMatchObject({ status: "paired", chat: { title: "Anna Berg" } });
  });
});
