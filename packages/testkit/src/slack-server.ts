import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

/** What the bot posted (edits applied), with the buttons of its actions blocks. */
export interface SlackPosted {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: Record<string, unknown>[];
  buttons: { text: string; value?: string; url?: string; style?: string }[];
}

export interface SlackUser {
  userId: string;
  /** The direct message channel between this user and the bot (D...). */
  channel: string;
  say(text: string, extra?: Record<string, unknown>): Promise<void>;
  /** Shares (forwards) someone else's message into the chat. */
  share(text: string, author: string): Promise<void>;
  /** A file, with a comment. */
  file(name: string, mimeType: string, bytes: Buffer, comment?: string): Promise<void>;
  press(message: SlackPosted, buttonText: string): Promise<void>;
}

export interface SlackTestServer {
  /** SAGE_SLACK_API_URL. */
  apiUrl: string;
  botToken: string;
  appToken: string;
  signingSecret: string;
  /** Socket Mode (events over the app's WebSocket) or the Events API (signed posts to `eventsUrl`). */
  mode: "socket" | "http";
  /** Where the Events API posts (set once the channel exists). */
  eventsUrl?: string;
  user(options: { userId: string; name: string; realName: string; channel?: string; channelType?: "im" | "channel" }): SlackUser;
  posted(channel?: string): SlackPosted[];
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** The next call of `method` is answered 429 with Retry-After (seconds). */
  failNext(method: string, retryAfter: number, times?: number): void;
  /** Every Web API call, in order (method, the token used, the arguments). */
  calls: { method: string; token: string; args: Record<string, unknown>; at: number }[];
  /** Envelopes sent over the socket that the app did not acknowledge. */
  unacknowledged(): string[];
  /** Signs a body as Slack does (v0, HMAC-SHA256 of "v0:timestamp:body"). */
  sign(body: string, timestamp?: number): Record<string, string>;
  stop(): Promise<void>;
}

const TEAM = { id: "T0SAGE001", name: "Acme" };
const BOT = { userId: "U0SAGEBOT", botId: "B0SAGEBOT", name: "sage", appId: "A0SAGEAPP" };

/** The Block Kit rules SAGE's messages meet (api.slack.com/reference/block-kit): Slack refuses the message otherwise. */
function blocksProblem(blocks: unknown): string | null {
  if (!Array.isArray(blocks)) return "invalid_blocks_format";
  if (blocks.length > 50) return "invalid_blocks: no more than 50 items allowed";
  const actionIds = new Set<string>();
  for (const block of blocks as Record<string, any>[]) {
    if (block.type === "section") {
      const text = block.text;
      if (!text || !["plain_text", "mrkdwn"].includes(text.type) || typeof text.text !== "string") return "invalid_blocks: section must have a text object";
      if (text.text.length === 0 || text.text.length > 3000) return "invalid_blocks: must be less than 3001 characters [json-pointer:/blocks/0/text/text]";
    } else if (block.type === "actions") {
      if (!Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 25) return "invalid_blocks: actions must have 1-25 elements";
      for (const element of block.elements) {
        if (element.type !== "button") return `invalid_blocks: unsupported element ${element.type}`;
        if (element.text?.type !== "plain_text" || !element.text.text || element.text.text.length > 75)
          return "invalid_blocks: button text must be plain_text of 1-75 characters";
        if (typeof element.action_id !== "string" || element.action_id.length > 255 || actionIds.has(element.action_id))
          return "invalid_blocks: action_id must be unique and at most 255 characters";
        actionIds.add(element.action_id);
        if (element.value !== undefined && (typeof element.value !== "string" || element.value.length > 2000))
          return "invalid_blocks: value must be at most 2000 characters";
        if (element.style !== undefined && !["primary", "danger"].includes(element.style)) return "invalid_blocks: style must be primary or danger";
        if (element.url !== undefined && !/^https?:\/\//.test(element.url)) return "invalid_blocks: url must be http(s)";
      }
    } else return `invalid_blocks: unsupported block ${String(block.type)}`;
  }
  return null;
}

/** A Web API form body (the SDK posts x-www-form-urlencoded, objects as JSON strings) or JSON. */
function parseArgs(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes("application/json")) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    args[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return args;
}

/**
 * A strict fake of Slack for one app in one workspace: the Web API methods SAGE calls, checked as Slack documents them
 * (the token type each needs, required arguments, Block Kit limits, 429 with Retry-After), files served to the bot
 * token only, Socket Mode over a real WebSocket (hello, envelopes that must be acknowledged) or the Events API (posts
 * signed with the signing secret).
 */
export async function startSlackServer(options: { mode?: "socket" | "http" } = {}): Promise<SlackTestServer> {
  const botToken = `xoxb-1-${randomUUID().replace(/-/g, "")}`;
  const appToken = `xapp-1-${randomUUID().replace(/-/g, "")}`;
  const signingSecret = randomUUID().replace(/-/g, "");
  const mode = options.mode ?? "socket";
  const posted: SlackPosted[] = [];
  const files = new Map<string, Buffer>();
  const users = new Map<string, { name: string; realName: string }>();
  const failures = new Map<string, { retryAfter: number; times: number }>();
  const calls: SlackTestServer["calls"] = [];
  const sockets = new Set<WebSocket>();
  const unacked = new Set<string>();
  const tickets = new Set<string>();
  let clock = 1_700_000_000;
  const nextTs = () => `${++clock}.000100`;
  let origin = "";

  const answer = (response: http.ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };

  function buttonsOf(blocks: Record<string, any>[]): SlackPosted["buttons"] {
    return blocks
      .filter((block) => block.type === "actions")
      .flatMap((block) => block.elements as Record<string, any>[])
      .map((element) => ({ text: element.text.text, value: element.value, url: element.url, style: element.style }));
  }

  function method(name: string, token: string, args: Record<string, unknown>): Record<string, unknown> {
    const isBot = token === botToken;
    const isApp = token === appToken;
    if (!isBot && !isApp) return { ok: false, error: "invalid_auth" };
    switch (name) {
      case "auth.test":
        if (!isBot) return { ok: false, error: "not_allowed_token_type" };
        return { ok: true, url: `${origin}/`, team: TEAM.name, user: BOT.name, team_id: TEAM.id, user_id: BOT.userId, bot_id: BOT.botId };
      case "apps.connections.open": {
        if (!isApp) return { ok: false, error: "not_allowed_token_type" };
        const ticket = randomUUID();
        tickets.add(ticket);
        return { ok: true, url: `${origin.replace(/^http/, "ws")}/link/?ticket=${ticket}` };
      }
      case "users.info": {
        if (!isBot) return { ok: false, error: "not_allowed_token_type" };
        const user = users.get(String(args.user));
        if (!user) return { ok: false, error: "user_not_found" };
        return { ok: true, user: { id: args.user, name: user.name, real_name: user.realName, profile: { real_name: user.realName, display_name: user.name } } };
      }
      case "chat.postMessage": {
        if (!isBot) return { ok: false, error: "not_allowed_token_type" };
        if (!args.channel) return { ok: false, error: "channel_not_found" };
        if (!args.text && !args.blocks) return { ok: false, error: "no_text" };
        if (typeof args.text === "string" && args.text.length > 40_000) return { ok: false, error: "msg_too_long" };
        if (args.blocks !== undefined) {
          const problem = blocksProblem(args.blocks);
          if (problem) return { ok: false, error: "invalid_blocks", errors: [problem] };
        }
        const message: SlackPosted = {
          channel: String(args.channel),
          ts: nextTs(),
          text: String(args.text ?? ""),
          blocks: (args.blocks as Record<string, unknown>[]) ?? [],
          buttons: buttonsOf((args.blocks as Record<string, any>[]) ?? []),
          ...(args.thread_ts ? { threadTs: String(args.thread_ts) } : {}),
        };
        posted.push(message);
        return { ok: true, channel: message.channel, ts: message.ts, message: { text: message.text, ts: message.ts, bot_id: BOT.botId } };
      }
      case "chat.update": {
        if (!isBot) return { ok: false, error: "not_allowed_token_type" };
        const message = posted.find((item) => item.channel === args.channel && item.ts === args.ts);
        if (!message) return { ok: false, error: "message_not_found" };
        if (args.blocks !== undefined) {
          const problem = blocksProblem(args.blocks);
          if (problem) return { ok: false, error: "invalid_blocks", errors: [problem] };
        }
        message.text = String(args.text ?? message.text);
        message.blocks = (args.blocks as Record<string, unknown>[]) ?? [];
        message.buttons = buttonsOf(message.blocks as Record<string, any>[]);
        return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
      }
      default:
        return { ok: false, error: "unknown_method" };
    }
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", origin);
      const token = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
      const file = /^\/files\/([^/]+)\//.exec(url.pathname);
      if (file) {
        const bytes = files.get(file[1]!);
        if (token !== botToken || !bytes) return answer(response, { ok: false, error: "file_not_found" }, 404);
        response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.length) });
        return response.end(bytes);
      }
      const api = /^\/api\/([\w.]+)$/.exec(url.pathname);
      if (!api || request.method !== "POST") return answer(response, { ok: false, error: "unknown_method" }, 404);
      const name = api[1]!;
      const raw = Buffer.concat(chunks).toString("utf8");
      let args: Record<string, unknown>;
      try {
        args = parseArgs(raw, String(request.headers["content-type"] ?? ""));
      } catch {
        return answer(response, { ok: false, error: "invalid_form_data" });
      }
      // A token in the body is what older clients sent; the SDK sends it in the header.
      const used = token || String(args.token ?? "");
      calls.push({ method: name, token: used, args, at: Date.now() });
      const failing = failures.get(name);
      if (failing) {
        if (--failing.times <= 0) failures.delete(name);
        return answer(response, { ok: false, error: "ratelimited" }, 429, { "retry-after": String(failing.retryAfter) });
      }
      answer(response, method(name, used, args));
    });
  });
  const sockets_server = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request, socket, head) => {
    const url = new URL(request.url ?? "/", origin);
    const ticket = url.searchParams.get("ticket") ?? "";
    if (url.pathname !== "/link/" || !tickets.delete(ticket)) {
      socket.destroy();
      return;
    }
    sockets_server.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as { envelope_id?: string };
        if (message.envelope_id) unacked.delete(message.envelope_id);
      });
      ws.send(
        JSON.stringify({
          type: "hello",
          num_connections: sockets.size,
          debug_info: { host: "sage-fake", approximate_connection_time: 18060 },
          connection_info: { app_id: BOT.appId },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
    "x-slack-request-timestamp": String(timestamp),
    "x-slack-signature": `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`,
  });

  const fake: SlackTestServer = {
    apiUrl: `${origin}/api/`,
    botToken,
    appToken,
    signingSecret,
    mode,
    calls,
    sign,
    posted: (channel) => posted.filter((message) => channel === undefined || message.channel === channel),
    unacknowledged: () => [...unacked],
    failNext(name, retryAfter, times = 1) {
      failures.set(name, { retryAfter, times });
    },
    async waitFor(check, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = check();
        if (found) return found;
        if (Date.now() > deadline) throw new Error("the Slack fake did not see what the test waited for in time");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    user({ userId, name, realName, channel, channelType = "im" }) {
      users.set(userId, { name, realName });
      const chat = channel ?? `D${userId.slice(1)}`;
      async function deliver(kind: "events_api" | "interactive", payload: Record<string, unknown>) {
        if (mode === "socket") {
          const socket = await fake.waitFor(() => [...sockets].find((candidate) => candidate.readyState === candidate.OPEN));
          const envelopeId = randomUUID();
          unacked.add(envelopeId);
          socket.send(
            JSON.stringify({
              envelope_id: envelopeId,
              type: kind,
              accepts_response_payload: kind === "interactive",
              retry_attempt: 0,
              retry_reason: "",
              payload,
            }),
          );
          return;
        }
        if (!fake.eventsUrl) throw new Error("set eventsUrl to where SAGE takes Slack's events");
        const body = kind === "interactive" ? `payload=${encodeURIComponent(JSON.stringify(payload))}` : JSON.stringify(payload);
        const contentType = kind === "interactive" ? "application/x-www-form-urlencoded" : "application/json";
        const response = await fetch(fake.eventsUrl, { method: "POST", headers: { "content-type": contentType, ...sign(body) }, body });
        if (!response.ok) throw new Error(`SAGE answered Slack's post with ${response.status}: ${await response.text()}`);
      }
      const event = (fields: Record<string, unknown>) =>
        deliver("events_api", {
          token: "verification-token-unused",
          team_id: TEAM.id,
          api_app_id: BOT.appId,
          event: {
            type: "message",
            channel: chat,
            channel_type: channelType,
            user: userId,
            ts: nextTs(),
            event_ts: `${clock}.000100`,
            team: TEAM.id,
            ...fields,
          },
          type: "event_callback",
          event_id: `Ev${randomUUID().slice(0, 8)}`,
          event_time: clock,
          authorizations: [{ team_id: TEAM.id, user_id: BOT.userId, is_bot: true }],
        });
      return {
        userId,
        channel: chat,
        say: (text, extra = {}) => event({ text: text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"), ...extra }),
        share: (text, author) => event({ text: "", attachments: [{ is_share: true, is_msg_unfurl: true, text, fallback: text, author_name: author }] }),
        file: (fileName, mimeType, bytes, comment = "") => {
          const id = `F${randomUUID().slice(0, 8).toUpperCase()}`;
          files.set(id, bytes);
          return event({
            subtype: "file_share",
            text: comment,
            files: [
              {
                id,
                name: fileName,
                title: fileName,
                mimetype: mimeType,
                size: bytes.length,
                url_private_download: `${origin}/files/${id}/${encodeURIComponent(fileName)}`,
              },
            ],
          });
        },
        async press(message, buttonText) {
          const button = message.buttons.find((candidate) => candidate.text === buttonText);
          if (!button?.value) throw new Error(`no button "${buttonText}" under message ${message.ts}`);
          const actionId = button.value;
          await deliver("interactive", {
            type: "block_actions",
            user: { id: userId, username: name, name, team_id: TEAM.id },
            api_app_id: BOT.appId,
            token: "verification-token-unused",
            container: { type: "message", message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
            trigger_id: `${clock}.trigger`,
            team: { id: TEAM.id, domain: "acme" },
            channel: { id: message.channel, name: "directmessage" },
            message: { type: "message", ts: message.ts, text: message.text, bot_id: BOT.botId },
            actions: [
              {
                action_id: actionId,
                block_id: "b1",
                text: { type: "plain_text", text: buttonText },
                value: button.value,
                type: "button",
                action_ts: `${clock}.000200`,
              },
            ],
          });
        },
      };
    },
    async stop() {
      for (const socket of sockets) socket.terminate();
      sockets_server.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
