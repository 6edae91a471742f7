import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import type { TurnEvent } from "@sage/contracts/chat-turn";
import { APPROVAL_CARD_TEXTS, type ApprovalRequest } from "@sage/contracts/external-tools";
import type { Message } from "@sage/contracts/conversations";
import type { ChannelAction, ChannelAdapter, ChannelInbound, ChannelMessage, ChannelSender, ChatAddress } from "../../channels/channel-adapter.ts";
import { AppError } from "../../http/app-error.ts";
import type { ConversationTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import type { ReceivedFilesPort } from "../knowledge/knowledge.module.ts";
import { approvalCardMarkdown, cardButtonData, contentDerived, markdownLiteral, parseCardButton } from "./approval-card.ts";
import type { ApprovalsLike } from "./approval-events.ts";
import type { ChannelOutbox } from "./channel-outbox.ts";
import type { ChannelRow, ChannelsRepo } from "./channels.repo.ts";
import { MAX_WRONG_CODES, codeIn, looksLikeCode, pairingHash } from "./pairing-code.ts";

/** How long a file that came with a message may take to be read before the turn goes on without its text. */
const FILE_READ_WAIT_MS = 120_000;
/** Telegram shows "typing..." for 5 seconds: it is said again this often while a turn runs. */
const TYPING_EVERY_MS = 4_500;

export interface InboundDeps {
  repo: ChannelsRepo;
  outbox: ChannelOutbox;
  adapterFor(channelId: number): Promise<ChannelAdapter | null>;
  turns: ConversationTurnPort;
  approvals: Pick<ApprovalsLike, "pending" | "answer">;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: Pick<ConversationStarterPort, "create">;
  files: ReceivedFilesPort;
  maxFileBytes: number;
  /** Where links in messages point (SAGE_PUBLIC_URL). */
  publicUrl: string;
  now: () => Date;
  warn(message: string, error?: unknown): void;
  info(message: string, detail: Record<string, unknown>): void;
}

/** Where a chat's messages go: the paired chat, a Slack thread or an e-mail's subject kept for replies. */
export const pairedAddress = (channel: ChannelRow): ChatAddress => ({ chatId: channel.chatId ?? "" });

/** The sender is the paired chat's paired person (in a group, only the one who paired it). */
const isPaired = (channel: ChannelRow, sender: ChannelSender) =>
  channel.status === "paired" && channel.chatId === sender.chatId && channel.chatUserId === sender.userId;

/**
 * What happens to everything a channel receives: a message from the paired person becomes a turn of the channel's
 * conversation (kept first, so a restart does not lose it); a pairing code pairs; anything else is refused, counted
 * and answered once at most, and never read by the model. A button press answers an approval through the one
 * approval path, only when pressed by the paired person (decision 076).
 */
export function createChannelInbound(deps: InboundDeps) {
  const { repo, outbox } = deps;
  const closing = new AbortController();
  /** Per channel: the inbox being worked through, and whether to look again after it. */
  const working = new Map<number, Promise<void>>();
  const lookAgain = new Set<number>();
  /** Per channel: a card of the running turn waits for an answer (a message meanwhile is read after it). */
  const waitingCard = new Map<number, boolean>();
  /** Approvals answered by a button (their cards then say "Approved", not "Approved in SAGE"). */
  const answeredHere = new Map<string, "approved" | "declined">();
  const pending = new Set<Promise<unknown>>();

  const track = (promise: Promise<unknown>) => {
    const tracked = promise.catch((error: unknown) => deps.warn("a channel message could not be handled", error)).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  /** Renders Markdown for the channel and sends each piece to the chat, in order. */
  async function say(channelId: number, chat: ChatAddress, markdown: string, options: { cite?: (n: number) => string | undefined } = {}) {
    const adapter = await deps.adapterFor(channelId);
    if (!adapter) return;
    for (const text of adapter.render(markdown, options.cite)) await outbox.send(channelId, { kind: "send", chat, message: { text } });
  }

  /** The sender's name and chat title, asked of the service when the message carries only ids (Slack). */
  async function named(channelId: number, sender: ChannelSender): Promise<ChannelSender> {
    if (sender.userName) return sender;
    const adapter = await deps.adapterFor(channelId);
    const found = await adapter?.whoIs?.(sender).catch(() => null);
    return found ? { ...sender, ...found } : sender;
  }

  async function refuse(channel: ChannelRow, sender: ChannelSender, reply: string | null, wrongCode = false) {
    const key = `${sender.chatId}:${sender.userId}`;
    const who = await named(channel.id, sender);
    const row = await repo.refuse(channel.id, key, who.group ? who.chatTitle : who.userName || who.chatTitle, deps.now().toISOString(), wrongCode);
    deps.info("a channel refused a message from a chat that is not paired", { channelId: channel.id, kind: channel.kind, refused: row.count });
    const adapter = await deps.adapterFor(channel.id);
    if (!reply || adapter?.repliesToStrangers === false) return;
    if (await repo.markReplied(channel.id, key)) await say(channel.id, { chatId: sender.chatId }, markdownLiteral(reply));
  }

  async function pair(channel: ChannelRow, message: ChannelMessage) {
    const who = await named(channel.id, message);
    const title = who.group ? who.chatTitle : who.userName || who.chatTitle;
    await repo.update(channel.id, {
      status: "paired",
      chatId: message.chatId,
      chatUserId: message.userId,
      chatTitle: title,
      chatGroup: message.group ? 1 : 0,
      pairingHash: null,
      pairingExpiresAt: null,
      allowGroup: 0,
    });
    await repo.clearWrongCodes(channel.id);
    // The conversation exists from the start: the web app shows it, and it fills as the chat goes on.
    await conversationOf((await repo.byId(channel.id))!);
    deps.info("a channel was paired", { channelId: channel.id, kind: channel.kind, group: message.group });
    await say(channel.id, message.replyTo, markdownLiteral(CHANNEL_TEXTS.paired(title)));
  }

  async function onMessage(channel: ChannelRow, message: ChannelMessage) {
    if (isPaired(channel, message)) {
      const kept = await repo.keepInbound(channel.id, message.id, JSON.stringify(message.raw), deps.now().toISOString());
      if (!kept) return;
      if (waitingCard.get(channel.id)) await say(channel.id, message.replyTo, markdownLiteral(CHANNEL_TEXTS.typingWhileWaiting));
      void work(channel.id);
      return;
    }
    const codeOpen = channel.pairingHash !== null && channel.pairingExpiresAt !== null && channel.pairingExpiresAt > deps.now().toISOString();
    const code = codeIn(message.text);
    if (codeOpen && code) {
      const tried = await repo.refusal(channel.id, `${message.chatId}:${message.userId}`);
      if ((tried?.wrongCodes ?? 0) >= MAX_WRONG_CODES) return refuse(channel, message, CHANNEL_TEXTS.tooManyTries);
      if (pairingHash(channel.id, code) === channel.pairingHash) {
        if (message.group && !channel.allowGroup) return refuse(channel, message, CHANNEL_TEXTS.groupRefused);
        return pair(channel, message);
      }
      return refuse(channel, message, CHANNEL_TEXTS.wrongCode, true);
    }
    if (message.group) return refuse(channel, message, channel.status === "paired" ? null : CHANNEL_TEXTS.groupRefused);
    if (codeOpen && looksLikeCode(message.text)) return refuse(channel, message, CHANNEL_TEXTS.wrongCode, true);
    return refuse(channel, message, channel.status === "paired" ? CHANNEL_TEXTS.refused : CHANNEL_TEXTS.notPaired);
  }

  async function onAction(channel: ChannelRow, action: ChannelAction, adapter: ChannelAdapter) {
    const button = parseCardButton(action.data);
    const acknowledge = (text?: string) => adapter.acknowledge?.(action, text).catch(() => undefined);
    if (!button) return acknowledge();
    if (!isPaired(channel, action)) {
      await refuse(channel, action, null);
      return acknowledge(CHANNEL_TEXTS.notYours);
    }
    const card = await repo.card(channel.id, button.approvalId);
    const request = (await deps.approvals.pending(channel.userId)).find((item) => item.approvalId === button.approvalId);
    if (!card || !request) return acknowledge(CHANNEL_TEXTS.cardGone);
    if (button.answer === "y" && contentDerived(request)) {
      // Approve of a card with a value from someone else's text asks once more, as the web app does (issue 47).
      await acknowledge();
      const pieces = adapter.render(`**${markdownLiteral(APPROVAL_CARD_TEXTS.confirmQuestion)}**`);
      for (const [index, text] of pieces.entries()) {
        const last = index === pieces.length - 1;
        const buttons = [
          { text: APPROVAL_CARD_TEXTS.confirmApprove, data: cardButtonData(button.approvalId, "c"), style: "danger" as const },
          { text: APPROVAL_CARD_TEXTS.confirmCancel, data: cardButtonData(button.approvalId, "b") },
        ];
        await outbox.send(
          channel.id,
          { kind: "send", chat: pairedAddress(channel), message: { text, ...(last ? { buttons } : {}) } },
          last ? button.approvalId : null,
        );
      }
      return;
    }
    if (button.answer === "b") {
      // Go back: the question closes, the card stays open for Approve or Decline.
      const question = await repo.cardBySentRef(channel.id, button.approvalId, action.message.ref);
      if (question) {
        await repo.markCardAnswered(question.id);
        const sent = JSON.parse(question.body) as { chat: ChatAddress; message: { text: string } };
        await outbox.send(channel.id, { kind: "edit", chat: sent.chat, cardId: question.id, message: { text: sent.message.text } });
      }
      return acknowledge();
    }
    const approved = button.answer !== "n";
    answeredHere.set(button.approvalId, approved ? "approved" : "declined");
    let answered: boolean;
    try {
      answered = await deps.approvals.answer(channel.userId, button.approvalId, approved, button.answer === "c" ? "content-derived" : undefined);
    } catch (error) {
      answeredHere.delete(button.approvalId);
      if (error instanceof AppError) return acknowledge(error.message);
      throw error;
    }
    if (!answered) answeredHere.delete(button.approvalId);
    return acknowledge(answered ? (approved ? CHANNEL_TEXTS.approved : CHANNEL_TEXTS.declined) : CHANNEL_TEXTS.cardGone);
  }

  /** The channel's conversation, made again when the user deleted it. */
  async function conversationOf(channel: ChannelRow): Promise<number> {
    if (channel.conversationId && (await deps.conversations.ownsConversation(channel.userId, channel.conversationId))) return channel.conversationId;
    const { id } = await deps.starter.create(channel.userId, CHANNEL_TEXTS.kindNames[channel.kind]);
    await repo.update(channel.id, { conversationId: id });
    return id;
  }

  /** The message's files and passed-on text, saved in the conversation's knowledge and attached to the turn. */
  async function attachments(channel: ChannelRow, conversationId: number, message: ChannelMessage): Promise<number[]> {
    const ids: number[] = [];
    for (const file of message.files) {
      try {
        const bytes = await file.download(deps.maxFileBytes);
        const added = await deps.files.add(channel.userId, conversationId, { name: file.name, mimeType: file.mimeType, bytes }, FILE_READ_WAIT_MS);
        ids.push(added.id);
      } catch (error) {
        const reason =
          error instanceof AppError || (error as Error)?.name === "ChannelError" ? (error as Error).message : CHANNEL_TEXTS.fileUnreadable(file.name);
        if (!(error instanceof AppError) && (error as Error)?.name !== "ChannelError") deps.warn("a file from a channel could not be saved", error);
        await say(channel.id, message.replyTo, markdownLiteral(reason));
      }
    }
    // Forwarded and quoted text is someone else's: it goes as a file, read as untrusted content (decision 031).
    for (const [index, passed] of message.passedOn.entries()) {
      const name = `${passed.label.replace(/[^\p{L}\p{N} ._-]/gu, "").slice(0, 80) || "Passed-on message"}${message.passedOn.length > 1 ? ` ${index + 1}` : ""}.txt`;
      ids.push((await deps.files.addText(channel.userId, conversationId, name, passed.text)).id);
    }
    return [...new Set(ids)];
  }

  /** What the user wrote, or a plain note of what came when they wrote nothing (a photo, a forward). */
  function contentOf(message: ChannelMessage): string {
    // An e-mail's words are the attached mail's: nothing of it is taken as typed by the user (decision 078).
    if (message.vouched === false) return CHANNEL_TEXTS.emailTurn;
    if (message.text.trim()) return message.text;
    if (message.passedOn.length > 0) return `[${message.passedOn[0]!.label}]`;
    if (message.files.length > 0) return `[${message.files.map((file) => file.name).join(", ")}]`;
    return "";
  }

  /** The answer's Markdown with its sources listed, each [n] a link to the conversation in SAGE. */
  function answerMarkdown(message: Message, link: string): string {
    const citations = message.citations ?? [];
    if (citations.length === 0) return message.content;
    const sources = citations.map((citation) => `${citation.n}. [${markdownLiteral(citation.filename || citation.source)}](${link})`);
    return `${message.content}\n\n**${CHANNEL_TEXTS.sources}**\n\n${sources.join("\n")}`;
  }

  async function sendCard(channel: ChannelRow, chat: ChatAddress, request: ApprovalRequest, adapter: ChannelAdapter) {
    const pieces = adapter.render(approvalCardMarkdown(request));
    const link = `${deps.publicUrl}/conversations/${request.conversationId ?? channel.conversationId ?? ""}`;
    for (const [index, text] of pieces.entries()) {
      const last = index === pieces.length - 1;
      const buttons =
        channel.kind === "email"
          ? undefined
          : [
              { text: CHANNEL_TEXTS.approve, data: cardButtonData(request.approvalId, "y"), style: "primary" as const },
              { text: CHANNEL_TEXTS.decline, data: cardButtonData(request.approvalId, "n"), style: "danger" as const },
            ];
      // E-mail never approves by reply (a sender can be forged): the card links to SAGE instead.
      const message = last ? { text, ...(buttons ? { buttons } : { link: { text: CHANNEL_TEXTS.approveInApp, url: link } }) } : { text };
      await outbox.send(channel.id, { kind: "send", chat, message }, last ? request.approvalId : null);
    }
  }

  /** One kept message, answered: its files saved, its turn run, the answer and any cards sent to the chat. */
  async function answer(channel: ChannelRow, inboxId: number, message: ChannelMessage, adapter: ChannelAdapter) {
    const conversationId = await conversationOf(channel);
    const link = `${deps.publicUrl}/conversations/${conversationId}`;
    const chat = message.replyTo;
    const typing = () => adapter.typing?.(chat).catch(() => undefined);
    void typing();
    const timer = adapter.typing ? setInterval(() => void (waitingCard.get(channel.id) ? undefined : typing()), TYPING_EVERY_MS) : undefined;
    const cards: Promise<unknown>[] = [];
    let removed = false;
    const done = async () => {
      if (removed) return;
      removed = true;
      await repo.doneInbound(inboxId);
    };
    try {
      const content = contentOf(message);
      const files = await attachments(channel, conversationId, message);
      if (!content.trim()) {
        await done();
        return;
      }
      const notices: string[] = [];
      const result = await deps.turns.run({
        userId: channel.userId,
        conversationId,
        content,
        attachments: files,
        signal: closing.signal,
        send(event: TurnEvent) {
          if (event.type === "user-message") cards.push(done());
          else if (event.type === "approval-required") {
            waitingCard.set(channel.id, true);
            cards.push(sendCard(channel, chat, event, adapter));
          } else if (event.type === "tool-result") waitingCard.set(channel.id, false);
          else if (event.type === "notice") notices.push(event.text);
        },
      });
      await Promise.all(cards);
      for (const notice of notices) await say(channel.id, chat, markdownLiteral(notice));
      for (const reply of result.messages) {
        if (reply.role !== "model" || !reply.content.trim()) continue;
        await say(channel.id, chat, answerMarkdown(reply, link), { cite: (n) => (reply.citations?.some((citation) => citation.n === n) ? link : undefined) });
      }
    } catch (error) {
      if (error instanceof AppError) await say(channel.id, chat, markdownLiteral(error.message));
      else throw error;
    } finally {
      clearInterval(timer);
      waitingCard.set(channel.id, false);
      await Promise.allSettled(cards);
      await done();
    }
  }

  /** Works through a channel's kept messages in order, one turn at a time. */
  function work(channelId: number): Promise<void> {
    const running = working.get(channelId);
    if (running) {
      lookAgain.add(channelId);
      return running;
    }
    const run = (async () => {
      do {
        lookAgain.delete(channelId);
        for (const row of await repo.inbox(channelId)) {
          if (closing.signal.aborted) return;
          const channel = await repo.byId(channelId);
          const adapter = await deps.adapterFor(channelId);
          if (!channel || !adapter) return;
          const item = adapter.parse(JSON.parse(row.body));
          if (!item || item.type !== "message" || !isPaired(channel, item)) {
            await repo.doneInbound(row.id);
            continue;
          }
          try {
            await answer(channel, row.id, item, adapter);
          } catch (error) {
            deps.warn("a channel message could not be answered", error);
            await repo.doneInbound(row.id).catch(() => undefined);
          }
        }
      } while (lookAgain.has(channelId) && !closing.signal.aborted);
    })().finally(() => working.delete(channelId));
    working.set(channelId, run);
    return run;
  }

  return {
    /** Everything a listener (or Slack's event route) received for a channel, handled in order; then the cursor moves. */
    async receive(channelId: number, batch: ChannelInbound[], cursor: string | null) {
      const adapter = await deps.adapterFor(channelId);
      if (!adapter) return;
      for (const item of batch) {
        const channel = await repo.byId(channelId);
        if (!channel) return;
        // A button press is answered at once, also while a turn waits for that very answer.
        if (item.type === "action") track(onAction(channel, item, adapter));
        else await onMessage(channel, item);
      }
      if (cursor !== null) await repo.update(channelId, { cursor });
    },
    /** Messages kept before a restart, answered now. */
    async resume() {
      for (const channelId of await repo.channelsWithInbox()) void work(channelId);
    },
    /** The answers of approvals, wherever given: each card's buttons close, saying how it was answered. */
    async closeCards(approvalId: string, answer: "approved" | "declined" | "timed-out") {
      const here = answeredHere.get(approvalId);
      answeredHere.delete(approvalId);
      for (const card of await repo.cards(approvalId)) {
        await repo.markCardAnswered(card.id);
        const channel = await repo.byId(card.channelId);
        const adapter = await deps.adapterFor(card.channelId);
        if (!channel || !adapter || channel.kind === "email") continue;
        const sent = JSON.parse(card.body) as { chat: ChatAddress; message: { text: string } };
        const word = answer === "timed-out" ? CHANNEL_TEXTS.timedOut : answer === "approved" ? CHANNEL_TEXTS.approved : CHANNEL_TEXTS.declined;
        const label = here || answer === "timed-out" ? word : CHANNEL_TEXTS.answeredElsewhere(word);
        const status = adapter.render(`**${markdownLiteral(label)}**`)[0] ?? "";
        const text = `${sent.message.text}\n\n${status}`.length <= adapter.limit ? `${sent.message.text}\n\n${status}` : status;
        await outbox.send(card.channelId, { kind: "edit", chat: sent.chat, cardId: card.id, message: { text } });
      }
    },
    /** An approval card sent to a channel (a scheduled run waiting for Approve). */
    sendCard,
    say,
    /** Resolves when nothing is being handled (tests, shutdown). */
    async idle() {
      for (;;) {
        const busy = [...working.values(), ...pending];
        if (busy.length === 0) return;
        await Promise.allSettled(busy);
      }
    },
    async close() {
      closing.abort();
      await Promise.allSettled([...working.values(), ...pending]);
    },
  };
}

export type ChannelInboundHandler = ReturnType<typeof createChannelInbound>;
