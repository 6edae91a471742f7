import { AppError, badRequest } from "../../http/app-error.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { openTokens, sealTokens, type GrantTokens } from "./grant-tokens.ts";
import { FLOW_LIFETIME_MS, hashOf, SignInNeededError, type GrantInfo } from "./sign-in.service.ts";
import type { SignInRepo } from "./sign-in.repo.ts";

/** A refresh in one process holds off the others this long (then another may try). */
const REFRESH_LEASE_MS = 30_000;

/** The words a flow that cannot be finished is refused with: where the user starts again is the caller's. */
export interface FlowTexts {
  stateInvalid: string;
  browserMismatch: string;
}

/**
 * Grants whose flow another part of SAGE runs itself (decision 080: an MCP server's authorization server, found by
 * discovery and registered with on the fly, whose sign-in the MCP SDK drives), kept exactly as the module keeps its
 * own (decision 070): tokens and client sealed in `oauth_grants`, a flow's state kept as its hash with its secrets
 * sealed and tied to the browser that started it, used once; one refresh per grant at a time in every process.
 */
export function createExternalGrants(deps: { repo: SignInRepo; box: SecretBox; now(): number }) {
  const { repo, box } = deps;
  const info = async (grantId: number): Promise<GrantInfo | null> => {
    const row = await repo.grant(grantId);
    return row ? { id: row.id, userId: row.userId, provider: row.provider, status: row.status, login: row.login, displayName: row.displayName } : null;
  };
  const tokens = async (grantId: number): Promise<GrantTokens | null> => {
    const row = await repo.grant(grantId);
    return row && row.status === "ok" ? openTokens(box, row.tokens) : null;
  };

  return {
    /** A new grant, waiting for its first sign-in; `provider` names what it is for ("mcp"). */
    create: (userId: number, provider: string) => repo.insertGrant(userId, provider),
    info,
    /** The grant's tokens while it is signed in, else null. */
    tokens,
    /** Tokens a sign-in or refresh brought: the grant is signed in. */
    async storeTokens(grantId: number, next: GrantTokens, scopes?: string) {
      await repo.updateGrant(grantId, { status: "ok", tokens: sealTokens(box, next), refreshLeaseUntilMs: null, ...(scopes !== undefined ? { scopes } : {}) });
    },
    /** The provider refused the tokens for good (invalid_grant, revoked): dropped, and the user signs in again. */
    async endTokens(grantId: number) {
      await repo.updateGrant(grantId, { status: "sign-in-needed", tokens: null, refreshLeaseUntilMs: null });
    },
    /** What the flow's owner keeps beside the tokens (a registered client, discovered endpoints), sealed. */
    async data<T>(grantId: number): Promise<T | null> {
      const row = await repo.grant(grantId);
      const opened = row?.client ? box.open(row.client) : null;
      return opened === null ? null : (JSON.parse(opened) as T);
    },
    async storeData(grantId: number, value: unknown) {
      await repo.updateGrant(grantId, { client: box.seal(JSON.stringify(value)) });
    },

    /**
     * New tokens from the refresh token, one refresh per grant at a time in every process: `fresh` says whether tokens
     * (maybe another request's new ones) need no refresh; `run` asks the token endpoint. SignInNeededError when the
     * grant has no tokens or `run` says the provider refused them for good (`revoked`).
     */
    async refresh(grantId: number, fresh: (tokens: GrantTokens) => boolean, run: (tokens: GrantTokens) => Promise<GrantTokens>): Promise<GrantTokens> {
      const deadline = Date.now() + REFRESH_LEASE_MS + 5_000;
      for (;;) {
        const current = await tokens(grantId);
        if (!current) throw new SignInNeededError(grantId);
        if (fresh(current)) return current;
        const wallClock = Date.now();
        if (await repo.claimRefresh(grantId, wallClock, wallClock + REFRESH_LEASE_MS)) {
          try {
            const next = await run(current);
            await repo.updateGrant(grantId, { tokens: sealTokens(box, next), refreshLeaseUntilMs: null });
            return next;
          } catch (error) {
            if (error instanceof SignInNeededError) {
              await repo.updateGrant(grantId, { status: "sign-in-needed", tokens: null, refreshLeaseUntilMs: null });
            } else {
              await repo.updateGrant(grantId, { refreshLeaseUntilMs: null });
            }
            throw error;
          }
        }
        // Another request or process is refreshing this grant: its tokens are read once stored.
        if (Date.now() > deadline) throw new AppError("sign_in_unavailable", 502, "A refresh of this sign-in did not finish");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },

    /** Keeps a flow under way: the state as its hash, `secrets` sealed, tied to the browser; 10 minutes to come back. */
    async startFlow(flow: { userId: number; grantId: number; state: string; secrets: Record<string, string>; browser: string; redirectUri: string }) {
      await repo.removeExpiredFlows(Date.now());
      await repo.insertFlow({
        stateHash: hashOf(flow.state),
        userId: flow.userId,
        grantId: flow.grantId,
        secrets: box.seal(JSON.stringify(flow.secrets)),
        browserHash: hashOf(flow.browser),
        redirectUri: flow.redirectUri,
        expiresAtMs: Date.now() + FLOW_LIFETIME_MS,
      });
    },

    /**
     * The flow a callback's state names: this user's, from this browser, not expired, used now (a second use is a
     * 400 that changes nothing, as a forged state is).
     */
    async finishFlow(request: { userId: number; state: string | undefined; browser: string | undefined; texts: FlowTexts }) {
      const flow = request.state ? await repo.flow(hashOf(request.state)) : undefined;
      if (!flow || flow.userId !== request.userId || flow.expiresAtMs < Date.now()) throw badRequest(request.texts.stateInvalid, "sign_in_state_invalid");
      if (!request.browser || hashOf(request.browser) !== flow.browserHash) throw badRequest(request.texts.browserMismatch, "sign_in_state_invalid");
      if (!(await repo.consumeFlow(flow.stateHash))) throw badRequest(request.texts.stateInvalid, "sign_in_state_invalid");
      const opened = box.open(flow.secrets);
      return { grantId: flow.grantId, redirectUri: flow.redirectUri, secrets: opened === null ? null : (JSON.parse(opened) as Record<string, string>) };
    },

    /** Forgets the grant (the caller revoked its tokens where the provider allows). */
    remove: (grantId: number) => repo.removeGrant(grantId),
  };
}

export type ExternalGrants = ReturnType<typeof createExternalGrants>;
