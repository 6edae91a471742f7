import { App, LogLevel, SocketModeReceiver, isValidSlackRequest, webApi } from "@slack/bolt";
import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { ChannelError, type ChannelAdapter, type ChannelInbound, type ChannelSender } from "../channel-adapter.ts";
import { renderMessages } from "../format/render-messages.ts";
import { slackMrkdwn } from "../format/slack-mrkdwn.ts";
import { SLACK_SECTION_LIMIT, slackActionIn, slackBlocks, slackMessageIn, type SlackBlockActions, type SlackMessageEvent } from "./slack-messages.ts";

const KIND = CHANNEL_TEXTS.kindNames.slack;
/** Bolt and its socket log on their own; what matters reaches SAGE as errors, so their logs say nothing. */
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};
/** Errors that mean the token no longer works (api.slack.com/methods/auth.test#errors). */
const TOKEN_REFUSED = new Set(["invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired", "no_permission", "missing_scope"]);

/** What Slack's refusal means for SAGE: wait (429 Retry-After), give up for good (a refused token or message), or retry. */
export function slackFailure(error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  const failure = error as { code?: string; retryAfter?: number; data?: { error?: string }; statusCode?: number };
  if (failure.code === webApi.ErrorCode.RateLimitedError)
    return new ChannelError(CHANNEL_TEXTS.unreachable(KIND), { retryAfterMs: (failure.retryAfter ?? 1) * 1000, status: 429 });
  if (failure.code === webApi.ErrorCode.PlatformError) {
    const code = failure.data?.error ?? "error";
    if (TOKEN_REFUSED.has(code)) return new ChannelError(CHANNEL_TEXTS.tokenRefused(KIND), { permanent: true, status: 401 });
    return new ChannelError(`${KIND} refused the message (${code}).`, { permanent: true, status: 400 });
  }
  return new ChannelError(CHANNEL_TEXTS.unreachable(KIND));
}

/** What a Slack events request answers: Slack retries a request that is not answered 2xx within 3 seconds. */
export interface SlackHttpAnswer {
  status: number;
  body: unknown;
  inbound: ChannelInbound[];
}

/**
 * A Slack app through Bolt, at SAGE_SLACK_API_URL: Socket Mode with an app-level token (SAGE needs no public address),
 * or the Events API with a signing secret (Slack posts to /api/channels/{id}/slack-events, each request's signature
 * checked). Messages go as Block Kit (an approval's buttons) with mrkdwn text; 429 is a ChannelError with Retry-After.
 */
export function createSlackAdapter(options: { botToken: string; appToken?: string; signingSecret?: string; apiUrl: string }): ChannelAdapter {
  // A 429 is the outbox's to wait out (it keeps the message meanwhile), not the client's to retry in place.
  const clientOptions = { slackApiUrl: options.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true };
  const client = new webApi.WebClient(options.botToken, { ...clientOptions, logger: quiet });
  const apiHost = new URL(options.apiUrl).host;
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw slackFailure(error);
    }
  };

  /** A file of a message, with the bot token: only from Slack's own hosts, never wherever a payload points. */
  async function download(url: string, name: string, maxBytes: number): Promise<Buffer> {
    const host = new URL(url).host;
    if (host !== apiHost && host !== "files.slack.com") throw new ChannelError(CHANNEL_TEXTS.fileUnreadable(name), { permanent: true });
    const response = await fetch(url, { headers: { authorization: `Bearer ${options.botToken}` } }).catch(() => null);
    if (!response?.ok) throw new ChannelError(CHANNEL_TEXTS.fileUnreadable(name));
    const length = Number(response.headers.get("content-length") ?? 0);
    if (length > maxBytes) throw new ChannelError(CHANNEL_TEXTS.fileTooLarge(name), { permanent: true });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > maxBytes) throw new ChannelError(CHANNEL_TEXTS.fileTooLarge(name), { permanent: true });
    return bytes;
  }

  const parse = (raw: unknown): ChannelInbound | null => {
    const value = raw as { type?: string };
    if (value?.type === "message") return slackMessageIn(raw as SlackMessageEvent, download);
    if (value?.type === "block_actions") return slackActionIn(raw as SlackBlockActions);
    return null;
  };

  return {
    kind: "slack",
    limit: SLACK_SECTION_LIMIT,
    render: (markdown, cite) => renderMessages(markdown, slackMrkdwn, SLACK_SECTION_LIMIT, cite),
    parse,

    async identify() {
      const auth = await call(() => client.auth.test());
      // Socket Mode: the app-level token must open a connection too (connections:write).
      if (options.appToken) {
        const appClient = new webApi.WebClient(undefined, { ...clientOptions, logger: quiet, headers: { Authorization: `Bearer ${options.appToken}` } });
        await call(() => appClient.apps.connections.open({}));
      }
      return { name: `@${auth.user ?? "sage"} in ${auth.team ?? "Slack"}`, identity: `slack:${auth.team_id}:${auth.user_id}` };
    },

    async whoIs(sender: ChannelSender) {
      const found = await call(() => client.users.info({ user: sender.userId })).catch(() => null);
      const user = found?.user as { real_name?: string; name?: string; profile?: { real_name?: string; display_name?: string } } | undefined;
      const userName = user?.profile?.real_name || user?.real_name || user?.profile?.display_name || user?.name || sender.userId;
      return { userName, chatTitle: sender.group ? sender.chatTitle : userName };
    },

    async listen({ signal, ready, receive }) {
      // The Events API needs no connection: Slack posts, and the route hands each request over.
      if (!options.appToken) {
        ready?.();
        await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
        return;
      }
      // The socket's own calls (apps.connections.open) may retry: a connection drops and is opened again.
      const receiver = new SocketModeReceiver({
        appToken: options.appToken,
        logger: quiet,
        installerOptions: { clientOptions: { slackApiUrl: options.apiUrl } },
      });
      const app = new App({ token: options.botToken, receiver, clientOptions, logger: quiet, tokenVerificationEnabled: false });
      // One at a time, in the order Slack sent them.
      let queue = Promise.resolve();
      const hand = (item: ChannelInbound | null) => {
        if (!item) return queue;
        queue = queue.then(() => receive([item], null)).catch(() => undefined);
        return queue;
      };
      app.event("message", async ({ event }) => {
        await hand(parse(event));
      });
      app.action(/^ap:/, async ({ ack, body }) => {
        await ack();
        await hand(parse(body));
      });
      app.error(async () => undefined);
      try {
        await app.start();
      } catch (error) {
        await app.stop().catch(() => undefined);
        throw slackFailure(error);
      }
      ready?.();
      await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
      await app.stop().catch(() => undefined);
      await queue;
    },

    // The Events API: a request Slack posted, checked and read (url_verification answered, events handed back).
    handleRequest({ body, headers }): SlackHttpAnswer {
      const header = (name: string) => [headers[name]].flat()[0] ?? "";
      const valid =
        options.signingSecret !== undefined &&
        isValidSlackRequest({
          signingSecret: options.signingSecret,
          body,
          headers: { "x-slack-signature": header("x-slack-signature"), "x-slack-request-timestamp": Number(header("x-slack-request-timestamp")) },
        });
      if (!valid) return { status: 401, body: { error: "The request's signature is not Slack's", code: "bad_signature" }, inbound: [] };
      // Interactivity posts a form with the payload as JSON; events post JSON.
      const payload = (body.startsWith("payload=") ? JSON.parse(new URLSearchParams(body).get("payload") ?? "{}") : JSON.parse(body)) as {
        type?: string;
        challenge?: string;
        event?: unknown;
      };
      if (payload.type === "url_verification") return { status: 200, body: { challenge: payload.challenge }, inbound: [] };
      const item = parse(payload.type === "event_callback" ? payload.event : payload);
      return { status: 200, body: {}, inbound: item ? [item] : [] };
    },

    async send(chat, message) {
      const sent = await call(() =>
        client.chat.postMessage({
          channel: chat.chatId,
          text: message.text,
          blocks: slackBlocks(message) as never,
          ...(chat.thread ? { thread_ts: chat.thread } : {}),
        }),
      );
      return { ref: String(sent.ts) };
    },

    async edit(chat, sent, message) {
      await call(() => client.chat.update({ channel: chat.chatId, ts: sent.ref, text: message.text, blocks: slackBlocks(message) as never }));
    },
  };
}
