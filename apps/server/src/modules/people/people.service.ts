import type { CitedLine } from "@sage/contracts/cited-lines";
import type { Commitment } from "@sage/contracts/commitments";
import { PEOPLE_TEXTS, type Person } from "@sage/contracts/people";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import { buildPeople } from "./build-people.ts";
import { partiesOf } from "./mail-addresses.ts";
import type { AddressRow, MailHeader, PeopleRepo, PersonRow } from "./people.repo.ts";
import { cardSource, mailSource, PROFILE_MAIL_CHARS, PROFILE_MAIL_FROM, PROFILE_MAIL_TO, writeProfile, type ProfileSource } from "./person-profile.ts";

/** Who an address belongs to, as triage rules and dossiers look senders up. */
export interface DirectoryEntry {
  personId: number;
  name: string;
  organisation: string | null;
  role: string | null;
  groups: string[];
  hidden: boolean;
}

/** People one list answers with. */
const LIST_LIMIT = 50;

/** What the user corrected (PATCH), kept apart from what the sources say. */
interface Corrections {
  name?: string;
  organisation?: string;
  role?: string;
  profile?: string[];
}

export interface PeopleServiceDeps {
  repo: PeopleRepo;
  llm: LlmProvider | null;
  /** The user's open commitments (the ledger's). */
  openCommitments(userId: number): Promise<Commitment[]>;
  /** A mail's text, from the knowledge index, up to maxChars ('' when it has none). */
  itemText(userId: number, itemId: number, maxChars: number): Promise<string>;
  /** Queues a profile to be written in the background (people.module.ts's job). */
  queueProfile(userId: number, personId: number): Promise<void>;
  now: () => Date;
}

const readCorrections = (row: PersonRow): Corrections => {
  try {
    return JSON.parse(row.corrections) as Corrections;
  } catch {
    return {};
  }
};
const readProfile = (row: PersonRow): CitedLine[] => {
  try {
    return JSON.parse(row.profile) as CitedLine[];
  } catch {
    return [];
  }
};
const folded = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().trim();

/** Whether a commitment involves the person: named as its other party, or read from a mail to or from them. */
function involves(commitment: Commitment, names: string[], addresses: Set<string>, mailOfItem: Map<number, MailHeader>): boolean {
  const other = folded(commitment.direction === "mine" ? commitment.counterparty : commitment.owner);
  if (
    other &&
    other !== "me" &&
    (names.some((name) => name && (other === name || other.includes(name))) || [...addresses].some((address) => other.includes(address)))
  )
    return true;
  const mail = commitment.source.itemId === null ? undefined : mailOfItem.get(commitment.source.itemId);
  if (!mail) return false;
  return [...partiesOf(mail.fromAddress), ...partiesOf(mail.toAddress)].some((party) => addresses.has(party.address));
}

export function createPeopleService(deps: PeopleServiceDeps) {
  const { repo } = deps;
  /** Builds in progress per user: a second request waits for the first instead of building twice. */
  const building = new Map<number, Promise<void>>();

  async function refresh(userId: number): Promise<void> {
    const running = building.get(userId);
    if (running) return running;
    const run = buildPeople(repo, userId, deps.now())
      .then(() => undefined)
      .finally(() => building.delete(userId));
    building.set(userId, run);
    return run;
  }

  /** Turns rows into the API's people, reading the shared parts (commitments, events, cards) once for them all. */
  async function toPeople(userId: number, rows: PersonRow[]): Promise<Person[]> {
    if (rows.length === 0) return [];
    const addressRows = await repo.addressesOf(
      userId,
      rows.map((row) => row.id),
    );
    const addressesBy = new Map<number, AddressRow[]>();
    for (const row of addressRows) addressesBy.set(row.personId, [...(addressesBy.get(row.personId) ?? []), row]);
    const commitments = await deps.openCommitments(userId);
    const itemIds = [...new Set(commitments.flatMap((commitment) => (commitment.source.itemId === null ? [] : [commitment.source.itemId])))];
    const mailOfItem = new Map((await repo.mailOfItems(userId, itemIds)).map((mail) => [mail.itemId!, mail]));
    const nowIso = deps.now().toISOString();
    const upcoming = (await repo.events(userId)).filter((event) => event.startAt > nowIso);
    const cards = await repo.cards(userId);
    return rows.map((row) => {
      const corrections = readCorrections(row);
      const addresses = (addressesBy.get(row.id) ?? []).map((entry) => entry.address);
      const set = new Set(addresses);
      const name = corrections.name ?? row.name;
      const names = [...new Set([name, row.name, ...(addressesBy.get(row.id) ?? []).flatMap((entry) => (entry.displayName ? [entry.displayName] : []))])]
        .map(folded)
        .filter((entry) => entry.length > 2);
      const last = (addressesBy.get(row.id) ?? []).reduce<string | null>(
        (latest, entry) => (entry.lastContactAt && (!latest || entry.lastContactAt > latest) ? entry.lastContactAt : latest),
        null,
      );
      const meeting = upcoming.find((event) => (JSON.parse(event.attendees) as string[]).flatMap(partiesOf).some((party) => set.has(party.address)));
      const organisation = corrections.organisation ?? row.organisation;
      const role = corrections.role ?? row.role;
      const groups = [
        ...new Set(
          cards
            .filter((card) => card.uid === row.cardUid || (JSON.parse(card.emails) as string[]).some((address) => set.has(address)))
            .flatMap((card) => JSON.parse(card.categories) as string[]),
        ),
      ];
      const corrected = (["name", "organisation", "role", "profile"] as const).filter((field) => corrections[field] !== undefined);
      return {
        id: row.id,
        name,
        addresses,
        ...(organisation ? { organisation } : {}),
        ...(role ? { role } : {}),
        lastContactAt: last,
        openCommitments: commitments.filter((commitment) => involves(commitment, names, set, mailOfItem)),
        ...(meeting ? { nextMeeting: { eventId: meeting.id, title: meeting.title, start: meeting.startAt } } : {}),
        profile: corrections.profile
          ? corrections.profile.map((text) => ({
              text,
              citations: [
                { n: 1, fileId: 0, filename: PEOPLE_TEXTS.yourCorrection, source: "your correction", score: 1, content: text, kind: "person" as const },
              ],
            }))
          : readProfile(row),
        profileAt: row.profileAt,
        corrected,
        groups,
        hidden: row.hidden === 1,
      };
    });
  }

  async function requirePerson(userId: number, id: number): Promise<PersonRow> {
    const row = await repo.get(userId, id);
    if (!row) throw notFound(PEOPLE_TEXTS.notFound, "person_not_found");
    return row;
  }

  const stale = (person: Person) =>
    deps.llm !== null && !person.corrected.includes("profile") && (person.profileAt === null || (person.lastContactAt ?? "") > person.profileAt);

  return {
    refresh,

    async list(userId: number, query: { q?: string; hidden?: boolean }): Promise<Person[]> {
      await refresh(userId);
      return toPeople(userId, await repo.search(userId, { q: query.q || undefined, hidden: query.hidden ?? false, limit: LIST_LIMIT }));
    },

    /** The person's page; a profile older than the last contact is queued to be written again in the background. */
    async get(userId: number, id: number): Promise<Person> {
      await refresh(userId);
      const [person] = await toPeople(userId, [await requirePerson(userId, id)]);
      if (stale(person!)) await deps.queueProfile(userId, id);
      return person!;
    },

    /**
     * Who each address the user deals with belongs to (name, organisation, role, contact groups): what triage rules and
     * dossiers look senders up in, read once for a whole round.
     */
    async directory(userId: number): Promise<Map<string, DirectoryEntry>> {
      await refresh(userId);
      const cards = await repo.cards(userId);
      const groupsOf = (uid: string | null, address: string) =>
        cards
          .filter((card) => card.uid === uid || (JSON.parse(card.emails) as string[]).includes(address))
          .flatMap((card) => JSON.parse(card.categories) as string[]);
      const entries = new Map<string, DirectoryEntry>();
      for (const row of await repo.directory(userId)) {
        const corrections = readCorrections(row as unknown as PersonRow);
        entries.set(row.address, {
          personId: row.id,
          name: corrections.name ?? row.name,
          organisation: corrections.organisation ?? row.organisation,
          role: corrections.role ?? row.role,
          groups: [...new Set(groupsOf(row.cardUid, row.address))],
          hidden: row.hidden === 1,
        });
      }
      return entries;
    },

    /** The user's own addresses (their mail accounts' user names), lower case. */
    ownAddresses: (userId: number) => repo.ownAddresses(userId),

    /** The people these addresses belong to (a meeting's attendees), in their order; unknown addresses left out. */
    async byAddresses(userId: number, addresses: string[]): Promise<Person[]> {
      await refresh(userId);
      const owners = await repo.owners(
        userId,
        addresses.map((address) => address.toLowerCase()),
      );
      const ids = [...new Set([...owners.values()].map((owner) => owner.personId))];
      const rows = (await Promise.all(ids.map((id) => repo.get(userId, id)))).filter((row): row is PersonRow => row !== undefined);
      return toPeople(userId, rows);
    },

    async update(
      userId: number,
      id: number,
      patch: { name?: string | null; organisation?: string | null; role?: string | null; profile?: string[] | null; hidden?: boolean },
    ) {
      const row = await requirePerson(userId, id);
      const corrections = readCorrections(row);
      for (const field of ["name", "organisation", "role", "profile"] as const) {
        const value = patch[field];
        if (value === undefined) continue;
        if (value === null) delete corrections[field];
        else (corrections as Record<string, unknown>)[field] = value;
      }
      await repo.updatePerson(userId, id, {
        corrections: JSON.stringify(corrections),
        ...(patch.hidden === undefined ? {} : { hidden: patch.hidden ? 1 : 0 }),
      });
      const [person] = await toPeople(userId, [await requirePerson(userId, id)]);
      return person!;
    },

    /** One person, two addresses: the other's addresses (and so their mail and meetings) become this person's. */
    async merge(userId: number, id: number, otherId: number): Promise<Person> {
      if (id === otherId) throw badRequest(PEOPLE_TEXTS.mergeSelf, "validation_error");
      const row = await requirePerson(userId, id);
      const other = await repo.get(userId, otherId);
      if (!other) throw notFound(PEOPLE_TEXTS.otherNotFound, "person_not_found");
      // What the user corrected on either stays, this person's first; a card that named the other names this one.
      const corrections = { ...readCorrections(other), ...readCorrections(row) };
      await repo.merge(userId, id, otherId);
      await repo.updatePerson(userId, id, {
        corrections: JSON.stringify(corrections),
        organisation: row.organisation ?? other.organisation,
        role: row.role ?? other.role,
        cardUid: row.cardUid ?? other.cardUid,
        profileAt: null,
      });
      const [person] = await toPeople(userId, [await requirePerson(userId, id)]);
      return person!;
    },

    /**
     * Writes the person's profile now from their contact card and mail (the model's structured output, every line
     * checked against its quote); organisation and role found in a signature fill in what no card says.
     */
    async writeProfile(userId: number, id: number, signal?: AbortSignal): Promise<Person> {
      const row = await requirePerson(userId, id);
      if (!deps.llm) throw badRequest(PEOPLE_TEXTS.noModel, "no_model");
      const addresses = (await repo.addressesOf(userId, [id])).map((entry) => entry.address);
      const sources: ProfileSource[] = [];
      const card = (await repo.cards(userId)).find(
        (entry) => entry.uid === row.cardUid || (JSON.parse(entry.emails) as string[]).some((address) => addresses.includes(address)),
      );
      if (card) sources.push(cardSource({ ...card, emails: JSON.parse(card.emails) as string[] }, id));
      const fromThem = await repo.mailWith(userId, addresses, PROFILE_MAIL_FROM, { from: true });
      const withThem = await repo.mailWith(userId, addresses, PROFILE_MAIL_FROM + PROFILE_MAIL_TO);
      const toThem = withThem.filter((mail) => !fromThem.some((other) => other.id === mail.id)).slice(0, PROFILE_MAIL_TO);
      for (const [mails, written] of [
        [fromThem, "by-them"],
        [toThem, "by-user"],
      ] as const) {
        for (const mail of mails) {
          if (mail.itemId === null) continue;
          const text = await deps.itemText(userId, mail.itemId, PROFILE_MAIL_CHARS);
          if (text.trim()) sources.push(mailSource(mail, text, written));
        }
      }
      const written = await writeProfile(deps.llm, { name: readCorrections(row).name ?? row.name, addresses }, sources, signal);
      if (!written) throw badRequest("The model could not write this profile now; try again later.", "model_failed");
      await repo.updatePerson(userId, id, {
        profile: JSON.stringify([...[written.organisation?.line, written.role?.line].filter((line): line is CitedLine => Boolean(line)), ...written.lines]),
        profileAt: deps.now().toISOString(),
        // A contact card says where someone works; a signature only fills in what no card says.
        ...(row.organisation === null && written.organisation ? { organisation: written.organisation.value } : {}),
        ...(row.role === null && written.role ? { role: written.role.value } : {}),
      });
      const [person] = await toPeople(userId, [await requirePerson(userId, id)]);
      return person!;
    },
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
