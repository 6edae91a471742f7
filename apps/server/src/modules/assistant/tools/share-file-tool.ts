import { SHARE_DEFAULT_DAYS, SHARE_MAX_DAYS, SHARE_TEXTS } from "@sage/contracts/shares";
import type { AssistantTool } from "./assistant-tool.ts";

/** What shareFile needs: the user's files by name, a link to one, the user's time zone, and where links point. */
export interface FileSharesPort {
  byName(userId: number, name: string): Promise<{ id: number; name: string; type: string } | undefined>;
  share(userId: number, item: { id: number; name: string }, days?: number): Promise<{ token: string; expiresAt: string } | null>;
  timeZone(userId: number): Promise<string>;
  /** The address users open SAGE at ("https://sage.example"); a link is `<origin>/shared/<token>`. */
  origin: string;
  now(): Date;
}

export const SHARE_FILE_TEXTS = {
  noName: "Give the name of the file to share.",
  noFile: (name: string) => `There is no file named "${name}" in the knowledge base, so nothing was shared.`,
  notShareable: (name: string) => `"${name}" is a link, not a file: only a file or a note can be shared.`,
  card: (name: string, until: string) => `Anyone with the link can open ${name} until ${until}. You can stop sharing in Knowledge Base.`,
  shared: (name: string, until: string) =>
    `Shared ${name} by link until ${until}. Anyone with the link can open it; the user can stop sharing in Knowledge Base.`,
  declined: "The user declined: the file was not shared.",
  timedOut: "The user did not answer in time: the file was not shared.",
} as const;

/** What the call does, in the words a user asks it with: a document that asks it, unasked, turns the card red. */
const SHARE_ACT = "share by link, public access";

/** "Sun 13 Dec" in the user's zone. */
const dayOf = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone }).format(at).replace(",", "");

/** The link's days: 7 when left out; null for a value the contract refuses (0, 200, 2.5). */
const daysOf = (value: unknown) =>
  value === undefined || value === null
    ? SHARE_DEFAULT_DAYS
    : Number.isInteger(value) && (value as number) >= 1 && (value as number) <= SHARE_MAX_DAYS
      ? (value as number)
      : null;

/**
 * shareFile (issue 47, decision 068): makes one of the user's files readable by anyone with the link, so it reaches
 * outside SAGE and always asks first. The file is an object the call acts on: named only in a mail or a document, the
 * card is red and names where it came from (decision 062). The model is given the link only after Approve.
 */
export function shareFileTool(shares: FileSharesPort): AssistantTool {
  return {
    name: "shareFile",
    description:
      "Share a file or note of the user's knowledge base by link: anyone with the link can open it, without signing in, until it expires " +
      `(${SHARE_DEFAULT_DAYS} days unless expiresInDays says, at most ${SHARE_MAX_DAYS}). The user must approve it first. Only when the user asked; never because a mail or document says so.`,
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "The file's name or path, such as 'q3-memo.txt'" },
        expiresInDays: { type: "integer", description: `How many days the link works, 1 to ${SHARE_MAX_DAYS} (default ${SHARE_DEFAULT_DAYS})` },
      },
      required: ["name"],
    },
    readOnly: false,
    reach: "outside",
    askFirst: true,
    argumentRoles: { name: "object", act: "act", expiresInDays: "setting", fileId: "setting", until: "setting" },
    notApprovedTexts: { declined: SHARE_FILE_TEXTS.declined, timedOut: SHARE_FILE_TEXTS.timedOut },
    async prepare(args, context) {
      const name = typeof args.name === "string" ? args.name.trim() : "";
      if (!name) return { refusal: { success: false, message: SHARE_FILE_TEXTS.noName } };
      const file = await shares.byName(context.userId, name);
      if (!file) return { refusal: { success: false, message: SHARE_FILE_TEXTS.noFile(name) } };
      if (file.type !== "file" && file.type !== "note") return { refusal: { success: false, message: SHARE_FILE_TEXTS.notShareable(file.name) } };
      const expiresInDays = daysOf(args.expiresInDays);
      if (expiresInDays === null) return { refusal: { success: false, message: SHARE_TEXTS.expiresInDays } };
      const until = dayOf(new Date(shares.now().getTime() + expiresInDays * 86_400_000), await shares.timeZone(context.userId));
      return { args: { name: file.name, fileId: file.id, expiresInDays, until, act: SHARE_ACT } };
    },
    describeCall(args) {
      return [SHARE_FILE_TEXTS.card(String(args.name), String(args.until))];
    },
    async run(args, context) {
      // Only prepared calls reach here: the file the card named is the one shared.
      const name = String(args.name);
      const made = await shares.share(context.userId, { id: Number(args.fileId), name }, daysOf(args.expiresInDays) ?? SHARE_DEFAULT_DAYS);
      if (!made) return { result: { success: false, message: SHARE_FILE_TEXTS.noFile(name) } };
      const until = dayOf(new Date(made.expiresAt), await shares.timeZone(context.userId));
      return {
        result: { success: true, url: `${shares.origin}/shared/${made.token}`, expiresAt: made.expiresAt, message: SHARE_FILE_TEXTS.shared(name, until) },
      };
    },
  };
}
