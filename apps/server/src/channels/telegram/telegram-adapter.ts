import { Api, GrammyError, HttpError } from "grammy";
import type { Message, MessageOrigin, Update, User } from "grammy/types";
import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { ChannelError, type ChannelAdapter, type ChannelFile, type ChannelInbound, type ChannelMessage, type ChatAddress } from "../channel-adapter.ts";
import { renderMessages } from "../format/render-messages.ts";
import { telegramHtml } from "../format/telegram-html.ts";

/** grammY's Node build types its signal as the abort-controller package's; the platform's is the same at run time. */
type GrammySignal = Parameters<Api["getMe"]>[0];
const grammySignal = (signal: AbortSignal | undefined) => signal as GrammySignal;

/** Telegram's limit: 4096 characters of a message's text (core.telegram.org/bots/api#sendmessage). */
export const TELEGRAM_LIMIT = 4096;
/** How long one getUpdates waits for an update (long polling); Telegram allows up to 50. */
const POLL_SECONDS = 25;

const KIND = CHANNEL_TEXTS.kindNames.telegram;

const personName = (user: Pick<User, "first_name" | "last_name" | "username"> | undefined) =>
  user ? [user.first_name, user.last_name].filter(Boolean).join(" ") || (user.username ? `@${user.username}` : "") : "";

function originName(origin: MessageOrigin): string {
  if (origin.type === "user") return personName(origin.sender_user);
  if (origin.type === "hidden_user") return origin.sender_user_name;
  if (origin.type === "chat") return origin.sender_chat.title ?? "";
  return origin.chat.title ?? "";
}

/** What Telegram's refusal means for SAGE: wait (429), give up for good (a refused token, a blocked bot), or retry. */
export function telegramFailure(error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  if (error instanceof GrammyError) {
    const retryAfter = error.parameters?.retry_after;
    if (error.error_code === 429) return new ChannelError(CHANNEL_TEXTS.unreachable(KIND), { retryAfterMs: (retryAfter ?? 1) * 1000, status: 429 });
    if (error.error_code === 401 || error.error_code === 404)
      return new ChannelError(CHANNEL_TEXTS.tokenRefused(KIND), { permanent: true, status: error.error_code });
    if (error.error_code === 403) return new ChannelError(`${KIND} refused: ${error.description}`, { permanent: true, status: 403 });
    if (error.error_code >= 400 && error.error_code < 500)
      return new ChannelError(`${KIND} refused the message: ${error.description}`, { permanent: true, status: error.error_code });
    return new ChannelError(CHANNEL_TEXTS.unreachable(KIND), { status: error.error_code });
  }
  if (error instanceof HttpError) return new ChannelError(CHANNEL_TEXTS.unreachable(KIND));
  return new ChannelError(CHANNEL_TEXTS.unreachable(KIND));
}

/** HTML Telegram could not read becomes the same words without formatting (the message still goes). */
const withoutTags = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

/**
 * A Telegram bot through grammY's API client (`apiRoot`: Telegram, a company's Bot API server, or the tests'
 * emulator). Receives by long polling getUpdates, so SAGE needs no public address; sends HTML.
 */
export function createTelegramAdapter(options: { token: string; apiRoot: string }): ChannelAdapter {
  const api = new Api(options.token, { apiRoot: options.apiRoot, timeoutSeconds: POLL_SECONDS + 30 });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw telegramFailure(error);
    }
  };

  function file(fileId: string, name: string, mimeType: string, size: number | undefined, kind: ChannelFile["kind"]): ChannelFile {
    return {
      name,
      mimeType,
      size: size ?? null,
      kind,
      async download(maxBytes) {
        const found = await call(() => api.getFile(fileId));
        if (!found.file_path) throw new ChannelError(CHANNEL_TEXTS.fileUnreadable(name), { permanent: true });
        if ((found.file_size ?? 0) > maxBytes) throw new ChannelError(CHANNEL_TEXTS.fileTooLarge(name), { permanent: true });
        const response = await fetch(`${options.apiRoot}/file/bot${options.token}/${found.file_path}`).catch(() => null);
        if (!response?.ok) throw new ChannelError(CHANNEL_TEXTS.fileUnreadable(name));
        const bytes = Buffer.from(await response.arrayBuffer());
        if (bytes.length > maxBytes) throw new ChannelError(CHANNEL_TEXTS.fileTooLarge(name), { permanent: true });
        return bytes;
      },
    };
  }

  function messageIn(message: Message): ChannelMessage | null {
    if (!message.from || message.from.is_bot) return null;
    const chat = message.chat;
    const group = chat.type !== "private";
    const written = message.text ?? message.caption ?? "";
    const passedOn: ChannelMessage["passedOn"] = [];
    let text = written;
    const forwarded = message.forward_origin ?? legacyForward(message);
    if (forwarded) {
      // A forwarded message is someone else's words, whoever passes it on (decision 031).
      if (written) passedOn.push({ label: CHANNEL_TEXTS.forwarded(originName(forwarded)), text: written });
      text = "";
    }
    if (message.quote?.text) passedOn.push({ label: CHANNEL_TEXTS.quoted(""), text: message.quote.text });
    else if (message.reply_to_message && !message.reply_to_message.from?.is_bot) {
      const replied = message.reply_to_message.text ?? message.reply_to_message.caption;
      if (replied) passedOn.push({ label: CHANNEL_TEXTS.quoted(personName(message.reply_to_message.from)), text: replied });
    }
    const files: ChannelFile[] = [];
    if (message.photo?.length) {
      const largest = [...message.photo].sort((a, b) => (b.file_size ?? b.width * b.height) - (a.file_size ?? a.width * a.height))[0]!;
      files.push(file(largest.file_id, `photo-${message.message_id}.jpg`, "image/jpeg", largest.file_size, "photo"));
    }
    if (message.document) {
      const document = message.document;
      files.push(
        file(
          document.file_id,
          document.file_name || `document-${message.message_id}`,
          document.mime_type || "application/octet-stream",
          document.file_size,
          "document",
        ),
      );
    }
    const chatTitle = group ? (chat.title ?? "") : personName(message.from);
    return {
      type: "message",
      raw: { message },
      id: `${chat.id}:${message.message_id}`,
      chatId: String(chat.id),
      chatTitle: chatTitle || (message.from.username ? `@${message.from.username}` : String(chat.id)),
      group,
      userId: String(message.from.id),
      userName: personName(message.from),
      text,
      passedOn,
      files,
      replyTo: { chatId: String(chat.id) },
    };
  }

  function updateIn(update: Update): ChannelInbound | null {
    if (update.message) return messageIn(update.message);
    const query = update.callback_query;
    if (query?.data && query.message) {
      const chat = query.message.chat;
      return {
        type: "action",
        raw: update,
        id: query.id,
        data: query.data,
        message: { ref: String(query.message.message_id) },
        chatId: String(chat.id),
        chatTitle: chat.type === "private" ? personName(query.from) : (chat.title ?? ""),
        group: chat.type !== "private",
        userId: String(query.from.id),
        userName: personName(query.from),
      };
    }
    return null;
  }

  const keyboard = (message: Parameters<ChannelAdapter["send"]>[1]) => {
    const rows = [
      ...(message.buttons?.length ? [message.buttons.map((button) => ({ text: button.text, callback_data: button.data }))] : []),
      ...(message.link ? [[{ text: message.link.text, url: message.link.url }]] : []),
    ];
    return { inline_keyboard: rows };
  };

  async function sendHtml(chat: ChatAddress, text: string, message: Parameters<ChannelAdapter["send"]>[1]) {
    const extra = { reply_markup: keyboard(message), link_preview_options: { is_disabled: true } };
    try {
      return await api.sendMessage(chat.chatId, text, { ...extra, parse_mode: "HTML" });
    } catch (error) {
      // Formatting Telegram could not read must not lose the message: the same words go without it.
      if (error instanceof GrammyError && error.error_code === 400 && /parse entities|can't find end/i.test(error.description)) {
        return api.sendMessage(chat.chatId, withoutTags(text), extra);
      }
      throw error;
    }
  }

  return {
    kind: "telegram",
    limit: TELEGRAM_LIMIT,
    render: (markdown, cite) => renderMessages(markdown, telegramHtml, TELEGRAM_LIMIT, cite),
    parse: (raw) => updateIn(raw as Update),

    async identify(signal) {
      const me = await call(() => api.getMe(grammySignal(signal)));
      return { name: `@${me.username}`, identity: `telegram:${me.id}` };
    },

    async listen({ cursor, signal, ready, receive }) {
      // A webhook left by another program stops getUpdates (409): SAGE's bot is SAGE's, so it is removed.
      await call(() => api.deleteWebhook({}, grammySignal(signal)));
      ready?.();
      let offset = cursor ? Number(cursor) : undefined;
      while (!signal.aborted) {
        let updates: Update[];
        try {
          updates = await api.getUpdates({ offset, timeout: POLL_SECONDS, allowed_updates: ["message", "callback_query"] }, grammySignal(signal));
        } catch (error) {
          if (signal.aborted) return;
          throw telegramFailure(error);
        }
        if (updates.length === 0) continue;
        offset = Math.max(...updates.map((update) => update.update_id)) + 1;
        const batch = updates.map(updateIn).filter((item): item is ChannelInbound => item !== null);
        await receive(batch, String(offset));
      }
    },

    async send(chat, message) {
      const sent = await call(() => sendHtml(chat, message.text, message));
      return { ref: String(sent.message_id) };
    },

    async edit(chat, sent, message) {
      await call(async () => {
        try {
          await api.editMessageText(chat.chatId, Number(sent.ref), message.text, {
            parse_mode: "HTML",
            reply_markup: keyboard(message),
            link_preview_options: { is_disabled: true },
          });
        } catch (error) {
          // Already showing this text: nothing to change.
          if (error instanceof GrammyError && /message is not modified/i.test(error.description)) return;
          throw error;
        }
      });
    },

    async acknowledge(action, text) {
      await call(() => api.answerCallbackQuery(action.id, text ? { text } : {}));
    },

    async typing(chat) {
      await call(() => api.sendChatAction(chat.chatId, "typing"));
    },
  };
}

/** Forwards as clients older than Bot API 7 mark them (and as the tests' emulator passes them through). */
function legacyForward(message: Message): MessageOrigin | undefined {
  const old = message as Message & { forward_from?: User; forward_sender_name?: string; forward_date?: number };
  if (old.forward_from) return { type: "user", sender_user: old.forward_from, date: old.forward_date ?? 0 };
  if (old.forward_sender_name) return { type: "hidden_user", sender_user_name: old.forward_sender_name, date: old.forward_date ?? 0 };
  return undefined;
}
