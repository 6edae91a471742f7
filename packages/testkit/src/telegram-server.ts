import http from "node:http";
import type { AddressInfo } from "node:net";
import TelegramServerModule from "telegram-test-api";
import { freePort } from "./local-server.ts";
import { parseTelegramHtml } from "./telegram-html-check.ts";

// The package's CommonJS default export, however the loader wraps it.
const TelegramServer = ((TelegramServerModule as unknown as { default?: typeof TelegramServerModule }).default ??
  TelegramServerModule) as typeof TelegramServerModule;
type Emulator = InstanceType<typeof TelegramServer>;

/** A message the bot sent, as the emulator keeps it (edits applied). */
export interface BotMessage {
  messageId: number;
  chatId: string;
  /** What the chat shows: the text after Telegram parsed its HTML. */
  text: string;
  /** The text as sent (HTML when `parseMode` is "HTML"). */
  html: string;
  parseMode: string | undefined;
  buttons: { text: string; data?: string; url?: string }[];
}

export interface TelegramUser {
  userId: number;
  chatId: number;
  /** Sends a text message from this user's chat. */
  say(text: string, extra?: Record<string, unknown>): Promise<void>;
  /** Forwards someone else's message into the chat. */
  forward(text: string, fromName: string): Promise<void>;
  /** A photo (its bytes served by getFile), with a caption. */
  photo(bytes: Buffer, caption?: string): Promise<void>;
  /** A document (a PDF, say), with a caption. */
  document(name: string, mimeType: string, bytes: Buffer, caption?: string): Promise<void>;
  /** Presses the button with this text under a message the bot sent. */
  press(message: BotMessage, buttonText: string): Promise<void>;
}

export interface TelegramTestServer {
  /** What SAGE_TELEGRAM_API_ROOT points at. */
  apiRoot: string;
  /** A bot token the server knows; any other is refused with 401 as Telegram does. */
  token: string;
  emulator: Emulator;
  /** A private chat (or a group, with `group`) with one user. */
  user(options: { userId: number; firstName: string; userName?: string; group?: { chatId: number; title: string } }): TelegramUser;
  /** What the bot sent, oldest first (to one chat when given). */
  botMessages(chatId?: number): BotMessage[];
  /** Waits until the bot sent a message that matches; fails the test after `timeoutMs`. */
  waitForBotMessage(match: (message: BotMessage) => boolean, timeoutMs?: number): Promise<BotMessage>;
  /** Waits until a sent message matches (after an edit, say). */
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** The next call of `method` fails: 429 with retry_after (seconds), or the connection is dropped. */
  failNext(method: string, failure: { retryAfter: number } | "drop", times?: number): void;
  /** Every Bot API call the bot made, in order: `at` by the wall clock, `hrAt` by performance.now() (for timings). */
  calls: { method: string; body: Record<string, unknown>; at: number; hrAt: number }[];
  /** Each getUpdates answered with updates (performance.now()): when the bot was handed them. */
  deliveries: { updateIds: number[]; hrAt: number }[];
  stop(): Promise<void>;
}

const TELEGRAM_LIMIT = 4096;

function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (!raw) return resolve({});
      if ((request.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) return resolve(Object.fromEntries(new URLSearchParams(raw)));
      try {
        resolve(JSON.parse(raw) as Record<string, unknown>);
      } catch (error) {
        reject(error as Error);
      }
    });
    request.on("error", reject);
  });
}

const parseMarkup = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : value);

/** Telegram's checks of a message the bot sends: text length after parsing, HTML, inline keyboard shape. */
function checkOutgoing(body: Record<string, unknown>): string | null {
  if (body.chat_id === undefined || body.chat_id === "") return "Bad Request: chat_id is empty";
  if (typeof body.text !== "string" || !body.text.trim()) return "Bad Request: message text is empty";
  let visible = body.text;
  if (body.parse_mode !== undefined) {
    if (body.parse_mode !== "HTML") return `Bad Request: unsupported parse_mode ${String(body.parse_mode)} in this emulator`;
    try {
      visible = parseTelegramHtml(body.text);
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (visible.length > TELEGRAM_LIMIT) return "Bad Request: message is too long";
  const markup = parseMarkup(body.reply_markup) as { inline_keyboard?: unknown } | undefined;
  if (markup !== undefined) {
    if (!Array.isArray(markup.inline_keyboard)) return 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array';
    for (const row of markup.inline_keyboard as unknown[]) {
      if (!Array.isArray(row)) return "Bad Request: keyboard row must be an Array";
      for (const button of row as Record<string, unknown>[]) {
        if (typeof button.text !== "string" || !button.text) return "Bad Request: text buttons are unallowed in the inline keyboard";
        const actions = ["callback_data", "url"].filter((key) => button[key] !== undefined);
        if (actions.length !== 1) return "Bad Request: inline keyboard button must have exactly one action";
        if (
          button.callback_data !== undefined &&
          (typeof button.callback_data !== "string" || Buffer.byteLength(button.callback_data) > 64 || !button.callback_data)
        )
          return "Bad Request: BUTTON_DATA_INVALID";
        if (button.url !== undefined && !/^(https?|tg):\/\//.test(String(button.url))) return "Bad Request: inline keyboard button URL is invalid";
      }
    }
  }
  return null;
}

/**
 * `telegram-test-api` (an emulator of the Bot API) behind a gateway that adds what the emulator lacks and checks
 * what Telegram checks: long-polling getUpdates with `offset` (updates stay until confirmed), getFile and file
 * downloads, sendChatAction, 429 `retry_after` and dropped connections on demand, unknown tokens refused with 401,
 * HTML and length checks on every message sent. The bot (SAGE) talks to `apiRoot` through grammY.
 */
export async function startTelegramServer(options: { token?: string; port?: number } = {}): Promise<TelegramTestServer> {
  const token = options.token ?? "123456789:AAHtestTokenForSageChannelsIntegration00";
  const emulator = new TelegramServer({ port: await freePort(), host: "127.0.0.1", storeTimeout: 3600 });
  await emulator.start();
  const emulatorUrl = emulator.config.apiURL;
  const files = new Map<string, { path: string; bytes: Buffer }>();
  const buffered: Record<string, unknown>[] = [];
  const failures = new Map<string, { failure: { retryAfter: number } | "drop"; times: number }>();
  const calls: TelegramTestServer["calls"] = [];
  const deliveries: TelegramTestServer["deliveries"] = [];
  const held = new Set<() => void>();
  let nextFile = 1;
  let nextUser = 1;

  const wake = () => {
    for (const resume of [...held]) resume();
  };
  emulator.on("AddedUserMessage", wake);
  emulator.on("AddedUserCallbackQuery", wake);
  emulator.on("AddedUserCommand", wake);

  function pull() {
    for (const update of emulator.getUpdates(token) as unknown as Record<string, unknown>[]) {
      const message = update.message as Record<string, unknown> | undefined;
      if (message) delete message.botToken;
      buffered.push(update);
    }
  }

  async function getUpdates(body: Record<string, unknown>, response: http.ServerResponse) {
    const offset = body.offset === undefined ? undefined : Number(body.offset);
    const timeoutMs = Math.min(Number(body.timeout ?? 0), 50) * 1000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      pull();
      if (offset !== undefined) while (buffered.length > 0 && Number(buffered[0]!.update_id) < offset) buffered.shift();
      if (buffered.length > 0 || Date.now() >= deadline || response.destroyed) break;
      await new Promise<void>((resolve) => {
        const resume = () => {
          held.delete(resume);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(resume, deadline - Date.now());
        held.add(resume);
        response.once("close", resume);
      });
    }
    const result = buffered.slice(0, 100);
    if (result.length > 0) deliveries.push({ updateIds: result.map((update) => Number(update.update_id)), hrAt: performance.now() });
    send(response, 200, { ok: true, result });
  }

  function send(response: http.ServerResponse, status: number, body: unknown) {
    if (response.destroyed || response.headersSent) return;
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }
  const refuse = (response: http.ServerResponse, status: number, description: string, parameters?: Record<string, unknown>) =>
    send(response, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

  async function forward(method: string, body: Record<string, unknown>, response: http.ServerResponse) {
    const answer = await fetch(`${emulatorUrl}/bot${token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    send(response, answer.status, await answer.json());
  }

  function storedMessage(chatId: unknown, messageId: unknown) {
    return emulator.storage.botMessages.find((stored) => String(stored.messageId) === String(messageId) && String(stored.message.chat_id) === String(chatId));
  }

  const gateway = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (file) {
        const found = [...files.values()].find((entry) => entry.path === file[2]);
        if (file[1] !== token || !found) return refuse(response, 404, "Not Found");
        response.writeHead(200, { "content-type": "application/octet-stream" });
        return response.end(found.bytes);
      }
      const route = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
      if (!route) return refuse(response, 404, "Not Found");
      const [, given, method] = route as unknown as [string, string, string];
      const body = { ...Object.fromEntries(url.searchParams), ...(await readJson(request)) };
      calls.push({ method, body, at: Date.now(), hrAt: performance.now() });
      if (given !== token) return refuse(response, 401, "Unauthorized");
      const failing = failures.get(method);
      if (failing) {
        if (--failing.times <= 0) failures.delete(method);
        if (failing.failure === "drop") return request.socket.destroy();
        return refuse(response, 429, `Too Many Requests: retry after ${failing.failure.retryAfter}`, { retry_after: failing.failure.retryAfter });
      }
      switch (method) {
        case "getUpdates":
          return getUpdates(body, response);
        case "getFile": {
          const found = files.get(String(body.file_id));
          if (!found) return refuse(response, 400, "Bad Request: invalid file_id");
          return send(response, 200, {
            ok: true,
            result: { file_id: body.file_id, file_unique_id: `u${String(body.file_id)}`, file_size: found.bytes.length, file_path: found.path },
          });
        }
        case "sendChatAction":
          if (!body.chat_id || body.action !== "typing") return refuse(response, 400, "Bad Request: wrong parameter action in request");
          return send(response, 200, { ok: true, result: true });
        case "sendMessage": {
          const problem = checkOutgoing(body);
          if (problem) return refuse(response, 400, problem);
          return forward(method, body, response);
        }
        case "editMessageText": {
          const problem = checkOutgoing(body);
          if (problem) return refuse(response, 400, problem);
          const stored = storedMessage(body.chat_id, body.message_id);
          if (!stored) return refuse(response, 400, "Bad Request: message to edit not found");
          const sameMarkup = JSON.stringify(parseMarkup(stored.message.reply_markup) ?? null) === JSON.stringify(parseMarkup(body.reply_markup) ?? null);
          if (stored.message.text === body.text && sameMarkup) return refuse(response, 400, "Bad Request: message is not modified");
          // The emulator keeps the old keyboard when the edit has none: an edit without one removes it, as Telegram does.
          return forward(method, { ...body, reply_markup: parseMarkup(body.reply_markup) ?? { inline_keyboard: [] } }, response);
        }
        case "getMe":
          // A bot's id is its token's first part, as on Telegram (the emulator answers 666 for every bot).
          return send(response, 200, { ok: true, result: { id: Number(token.split(":")[0]), is_bot: true, first_name: "SAGE test", username: "SageTestBot" } });
        case "deleteWebhook":
        case "setWebhook":
        case "answerCallbackQuery":
        case "editMessageReplyMarkup":
        case "deleteMessage":
          return forward(method, body, response);
        default:
          return refuse(response, 404, "Not Found: method not found");
      }
    })().catch((error: unknown) => refuse(response, 500, `Internal Server Error: ${String(error)}`));
  });
  // A given port: a server started before the test already points at it (the browser tests' SAGE, one per worker).
  try {
    await new Promise<void>((resolve, reject) => gateway.once("error", reject).listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  const apiRoot = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;

  function botMessages(chatId?: number): BotMessage[] {
    return emulator.storage.botMessages
      .filter((stored) => stored.botToken === token && (chatId === undefined || String(stored.message.chat_id) === String(chatId)))
      .map((stored) => {
        const markup = parseMarkup(stored.message.reply_markup) as { inline_keyboard?: { text: string; callback_data?: string; url?: string }[][] } | undefined;
        return {
          messageId: stored.messageId,
          chatId: String(stored.message.chat_id),
          text: stored.message.parse_mode === "HTML" ? parseTelegramHtml(String(stored.message.text)) : String(stored.message.text),
          html: String(stored.message.text),
          parseMode: stored.message.parse_mode as string | undefined,
          buttons: (markup?.inline_keyboard ?? []).flat().map((button) => ({ text: button.text, data: button.callback_data, url: button.url })),
        };
      });
  }

  async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found) return found;
      if (Date.now() > deadline) throw new Error("the Telegram emulator did not see what the test waited for in time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    apiRoot,
    token,
    emulator,
    calls,
    deliveries,
    botMessages,
    waitFor,
    waitForBotMessage: (match, timeoutMs) => waitFor(() => botMessages().find(match), timeoutMs),
    failNext(method, failure, times = 1) {
      failures.set(method, { failure, times });
    },
    user({ userId, firstName, userName, group }) {
      const chatId = group?.chatId ?? userId;
      const client = emulator.getClient(token, {
        userId,
        chatId,
        firstName,
        userName: userName ?? firstName.toLowerCase(),
        type: group ? "group" : "private",
        chatTitle: group?.title ?? firstName,
      });
      const addFile = (bytes: Buffer, extension: string) => {
        const fileId = `file-${nextFile++}`;
        files.set(fileId, { path: `documents/${fileId}.${extension}`, bytes });
        return fileId;
      };
      const post = async (message: Record<string, unknown>) => {
        await client.sendMessage(message as never);
      };
      const base = () => {
        const message = client.makeMessage("") as unknown as Record<string, unknown>;
        delete message.text;
        return message;
      };
      return {
        userId,
        chatId,
        say: (text, extra = {}) => post({ ...(client.makeMessage(text) as unknown as Record<string, unknown>), ...extra }),
        forward: (text, fromName) =>
          post({
            ...(client.makeMessage(text) as unknown as Record<string, unknown>),
            forward_origin: { type: "user", date: Math.floor(Date.now() / 1000), sender_user: { id: 9000 + nextUser++, is_bot: false, first_name: fromName } },
          }),
        photo: (bytes, caption) =>
          post({
            ...base(),
            ...(caption ? { caption } : {}),
            photo: [
              {
                file_id: addFile(bytes.subarray(0, Math.min(bytes.length, 64)), "jpg"),
                file_unique_id: "small",
                width: 90,
                height: 90,
                file_size: Math.min(bytes.length, 64),
              },
              { file_id: addFile(bytes, "jpg"), file_unique_id: "large", width: 800, height: 600, file_size: bytes.length },
            ],
          }),
        document: (name, mimeType, bytes, caption) =>
          post({
            ...base(),
            ...(caption ? { caption } : {}),
            document: {
              file_id: addFile(bytes, name.split(".").pop() ?? "bin"),
              file_unique_id: `d${nextFile}`,
              file_name: name,
              mime_type: mimeType,
              file_size: bytes.length,
            },
          }),
        async press(message, buttonText) {
          const button = message.buttons.find((candidate) => candidate.text === buttonText);
          if (!button?.data) throw new Error(`no button "${buttonText}" under message ${message.messageId}`);
          const query = client.makeCallbackQuery(button.data, {
            message: { message_id: message.messageId, chat: { id: Number(message.chatId), type: group ? "group" : "private", title: group?.title } },
          } as never);
          await client.sendCallback(query);
        },
      };
    },
    async stop() {
      wake();
      await new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      });
      await emulator.stop();
    },
  };
}
