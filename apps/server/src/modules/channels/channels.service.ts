import { CHANNEL_TEXTS, type Channel, type CreateChannelInput, type PairingResponse, type UpdateChannelInput } from "@sage/contracts/channels";
import { ChannelError, type ChannelAdapter } from "../../channels/channel-adapter.ts";
import { AppError, badRequest, conflict, notFound } from "../../http/app-error.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { ChannelRow, ChannelsRepo } from "./channels.repo.ts";
import { PAIRING_TTL_MS, newPairingCode, pairingHash } from "./pairing-code.ts";

/** A channel's sealed credentials (never shown again, never logged, never given to the model). */
export interface ChannelSecrets {
  token?: string;
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
}

/** A channel's settings besides its secrets: the mail account and address of an e-mail channel. */
export interface ChannelSettings {
  accountId?: number;
  address?: string;
}

export interface ChannelsServiceDeps {
  repo: ChannelsRepo;
  box: SecretBox;
  /** An adapter for credentials not saved yet (to check them). */
  open(kind: ChannelRow["kind"], secrets: ChannelSecrets, settings: ChannelSettings, userId: number): Promise<ChannelAdapter>;
  /** The user's mail account can receive and answer (e-mail channels). */
  checkMailAccount(userId: number, accountId: number): Promise<void>;
  /** Listening starts (or starts again) now, rather than at the next round. */
  changed(channelId: number, removed?: boolean): Promise<void>;
  now: () => Date;
}

/** Settings > Channels: connecting bots (checked, sealed), pairing codes, and each channel as the user sees it. */
export function createChannelsService(deps: ChannelsServiceDeps) {
  const { repo } = deps;

  async function view(row: ChannelRow): Promise<Channel> {
    const refusals = await repo.refusals(row.id);
    const lastAt = refusals.reduce<string | null>((latest, refusal) => (latest && latest > refusal.lastAt ? latest : refusal.lastAt), null);
    const open = row.pairingExpiresAt && row.pairingExpiresAt > deps.now().toISOString() ? row.pairingExpiresAt : null;
    return {
      id: row.id,
      kind: row.kind,
      status: row.error ? "error" : row.status === "paired" ? "paired" : "unpaired",
      name: row.name,
      ...(row.status === "paired" && row.chatTitle !== null ? { chat: { title: row.chatTitle, group: row.chatGroup === 1 } } : {}),
      error: row.error,
      pairingExpiresAt: open,
      allowGroup: row.allowGroup === 1,
      conversationId: row.conversationId,
      refused: { count: refusals.reduce((sum, refusal) => sum + refusal.count, 0), lastAt },
      unsent: await repo.unsent(row.id),
      createdAt: row.createdAt,
    };
  }

  function hint(row: Pick<ChannelRow, "kind" | "name">, code: string): string {
    if (row.kind === "telegram") return `https://t.me/${row.name.replace(/^@/, "")}?start=${code}`;
    if (row.kind === "slack") return `Send ${code} to ${row.name} in a direct message in Slack.`;
    return `Write to ${row.name} from your own address with ${code} as the subject.`;
  }

  async function newCode(row: ChannelRow): Promise<PairingResponse> {
    const code = newPairingCode();
    const expiresAt = new Date(deps.now().getTime() + PAIRING_TTL_MS).toISOString();
    await repo.update(row.id, { pairingHash: pairingHash(row.id, code), pairingExpiresAt: expiresAt });
    await repo.clearWrongCodes(row.id);
    const fresh = (await repo.byId(row.id))!;
    return { id: row.id, kind: row.kind, status: (await view(fresh)).status, pairingCode: code, pairingExpiresAt: expiresAt, pairingHint: hint(row, code) };
  }

  async function owned(userId: number, id: number) {
    const row = await repo.get(userId, id);
    if (!row) throw notFound(CHANNEL_TEXTS.notFound, "channel_not_found");
    return row;
  }

  return {
    view,
    async list(userId: number): Promise<Channel[]> {
      return Promise.all((await repo.list(userId)).map(view));
    },

    /** Checks the bot with its service, seals its tokens and makes the first pairing code. */
    async create(userId: number, input: CreateChannelInput): Promise<PairingResponse> {
      const secrets: ChannelSecrets =
        input.kind === "telegram"
          ? { token: input.token }
          : input.kind === "slack"
            ? { botToken: input.botToken, ...(input.appToken ? { appToken: input.appToken } : { signingSecret: input.signingSecret }) }
            : {};
      const settings: ChannelSettings = input.kind === "email" ? { accountId: input.accountId, address: input.address } : {};
      if (input.kind === "email") await deps.checkMailAccount(userId, input.accountId);
      const kindName = CHANNEL_TEXTS.kindNames[input.kind];
      let identity: { name: string; identity: string; cursor?: string };
      try {
        identity = await (await deps.open(input.kind, secrets, settings, userId)).identify(AbortSignal.timeout(30_000));
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof ChannelError && error.permanent) throw badRequest(error.message, "channel_refused");
        throw new AppError("channel_unreachable", 502, error instanceof ChannelError ? error.message : CHANNEL_TEXTS.unreachable(kindName));
      }
      if (await repo.byIdentity(identity.identity)) throw conflict(CHANNEL_TEXTS.duplicate, "channel_exists");
      const id = await repo.insert({
        userId,
        kind: input.kind,
        name: identity.name,
        identity: identity.identity,
        secrets: deps.box.seal(JSON.stringify(secrets)),
        settings: JSON.stringify(settings),
        pairingHash: null,
        pairingExpiresAt: null,
        createdAt: deps.now().toISOString(),
      });
      if (identity.cursor !== undefined) await repo.update(id, { cursor: identity.cursor });
      const answer = await newCode((await repo.byId(id))!);
      await deps.changed(id);
      return answer;
    },

    async remove(userId: number, id: number) {
      await owned(userId, id);
      await deps.changed(id, true);
      await repo.remove(userId, id);
    },

    /** A new one-time code: the next chat that sends it becomes the paired one. */
    async pairing(userId: number, id: number): Promise<PairingResponse> {
      return newCode(await owned(userId, id));
    },

    async update(userId: number, id: number, input: UpdateChannelInput): Promise<Channel> {
      await owned(userId, id);
      await repo.update(id, { allowGroup: input.allowGroup ? 1 : 0 });
      return view((await repo.byId(id))!);
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
