import { ACCOUNT_ERRORS, type SignInAccountInput, type UpdateAccountInput } from "@sage/contracts/accounts";
import { OAUTH_ERRORS, type OAuthProviderId } from "@sage/contracts/oauth";
import { badRequest } from "../../http/app-error.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { SignInOwner, SignInPort } from "../sign-in/sign-in.module.ts";
import { readSettings, type MailSettings } from "./account-settings.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import { readCalendarSettings, type CalendarSettings } from "./calendar-settings.ts";

/**
 * Accounts that sign in with Google, Microsoft or the company's provider (decision 070): made `sign-in-needed`
 * with a grant to fill; the sign-in names the login (the ID token's email, else preferred_username), and brings the
 * provider's calendar through the same grant. The tokens stay the sign-in module's.
 */
export function createSignInAccounts(deps: {
  repo: AccountsRepo;
  signIn: SignInPort;
  startSync(row: AccountRow): Promise<void>;
  requireAccount(userId: number, id: number): Promise<AccountRow>;
}) {
  const { repo, signIn } = deps;

  /** The provider's calendar for a signed-in mail account, once (Google's over CalDAV, Microsoft's over Graph). */
  async function addCalendar(mail: AccountRow, provider: OAuthProviderId, login: string): Promise<void> {
    const where = signIn.provider(provider).calendar;
    if (!where || mail.grantId === null) return;
    if ((await repo.withGrant(mail.grantId)).some((row) => row.kind === "calendar")) return;
    if (!(await signIn.covers(mail.grantId, "calendar"))) return;
    const settings: CalendarSettings =
      where.kind === "graph"
        ? { caldav: null, ics: null, graph: { url: where.url, user: login }, auth: { provider } }
        : { caldav: { url: where.url, user: login }, ics: null, auth: { provider } };
    const id = await repo.insert({
      userId: mail.userId,
      kind: "calendar",
      name: `${signIn.provider(provider).name} calendar`,
      settings: JSON.stringify(settings),
      secrets: null,
      status: "syncing",
      grantId: mail.grantId,
    });
    await deps.startSync((await repo.findById(id))!);
  }

  const owner: SignInOwner = {
    param: "account",
    async grantFor(userId, accountId, providerId) {
      const row = await deps.requireAccount(userId, accountId);
      const settings = row.kind === "mail" ? readSettings(row) : readCalendarSettings(row);
      if (settings.auth?.provider !== providerId) throw badRequest(OAUTH_ERRORS.wrongProvider, "validation_error");
      let grantId = row.grantId;
      if (grantId === null || !(await signIn.grant(grantId))) {
        // Restored from a backup (which never holds a token) or its grant is gone: a new one, for this account.
        grantId = await signIn.createGrant(userId, providerId);
        await repo.update(row.id, { grantId });
      }
      const grant = await signIn.grant(grantId);
      const hint = row.kind === "mail" ? (readSettings(row).address ?? grant?.login) : grant?.login;
      return { grantId, ...(hint ? { loginHint: hint } : {}) };
    },
    async signedIn(userId, grantId, result) {
      if (result !== "connected") return null;
      const grant = await signIn.grant(grantId);
      if (!grant?.login || grant.userId !== userId) return null;
      const rows = (await repo.withGrant(grantId)).filter((row) => row.userId === userId);
      for (const row of rows) {
        if (row.kind === "mail") {
          const settings = readSettings(row);
          settings.imap.user = grant.login;
          if (settings.smtp) settings.smtp.user = grant.login;
          if (settings.displayName === undefined && grant.displayName) settings.displayName = grant.displayName;
          const name = settings.nameFromSignIn ? grant.login : row.name;
          delete settings.nameFromSignIn;
          await repo.update(row.id, { name, settings: JSON.stringify(settings) });
        } else {
          const settings = readCalendarSettings(row);
          if (settings.caldav) settings.caldav.user = grant.login;
          if (settings.graph) settings.graph.user = grant.login;
          await repo.update(row.id, { settings: JSON.stringify(settings) });
        }
        await deps.startSync((await repo.findById(row.id))!);
      }
      for (const row of rows.filter((entry) => entry.kind === "mail")) {
        const settings = readSettings(row);
        if (settings.calendar && settings.auth) await addCalendar(row, settings.auth.provider, grant.login);
      }
      return null;
    },
  };

  return {
    owner,

    /** Saves the account without a secret, with a grant waiting for its first sign-in. */
    async create(userId: number, input: SignInAccountInput): Promise<AccountRow> {
      const provider = signIn.configured(input.auth.provider);
      const imap = input.imap ?? provider.mail?.imap;
      if (!imap) throw badRequest(ACCOUNT_ERRORS.serverRequiredForCompany, "validation_error");
      const smtp = input.smtp ?? provider.mail?.smtp ?? null;
      const calendar = input.calendar ?? Boolean(provider.calendar);
      if (calendar && !provider.calendar) throw badRequest(ACCOUNT_ERRORS.calendarNotWithCompany, "validation_error");
      const settings: MailSettings = {
        // The login is the sign-in's: filled in when it comes back.
        imap: { ...imap, user: "" },
        smtp: smtp ? { ...smtp, user: "" } : null,
        folders: input.folders,
        sinceDays: input.sinceDays,
        ...(input.address ? { address: input.address } : {}),
        ...(input.displayName ? { displayName: input.displayName } : {}),
        auth: { provider: input.auth.provider },
        calendar,
        ...(input.name ? {} : { nameFromSignIn: true }),
      };
      const grantId = await signIn.createGrant(userId, provider.id);
      const id = await repo.insert({
        userId,
        kind: "mail",
        name: input.name ?? `${provider.name} mail`,
        settings: JSON.stringify(settings),
        secrets: null,
        status: "sign-in-needed",
        grantId,
      });
      return (await repo.findById(id))!;
    },

    /** A PATCH of a signed-in account: name, address, display name, folders, servers; never a password. */
    async update(row: AccountRow, settings: MailSettings, patch: UpdateAccountInput): Promise<AccountRow> {
      const servers = [patch.imap, patch.smtp].filter(Boolean);
      if (servers.some((server) => server!.password !== undefined || server!.accessToken !== undefined)) {
        throw badRequest(ACCOUNT_ERRORS.signInNotThisWay, "validation_error");
      }
      if (patch.imap) settings.imap = { host: patch.imap.host, port: patch.imap.port, secure: patch.imap.secure, user: settings.imap.user };
      if (patch.smtp) settings.smtp = { host: patch.smtp.host, port: patch.smtp.port, secure: patch.smtp.secure, user: settings.imap.user };
      if (patch.folders) settings.folders = patch.folders;
      if (patch.sinceDays !== undefined) settings.sinceDays = patch.sinceDays;
      if (patch.name !== undefined) delete settings.nameFromSignIn;
      await repo.update(row.id, { ...(patch.name === undefined ? {} : { name: patch.name }), settings: JSON.stringify(settings) });
      const updated = (await repo.findById(row.id))!;
      const grant = updated.grantId === null ? null : await signIn.grant(updated.grantId);
      if ((patch.imap || patch.folders || patch.sinceDays !== undefined) && grant?.status === "ok") await deps.startSync(updated);
      return updated;
    },
  };
}
