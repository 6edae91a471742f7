import type { PeopleRepo } from "./people.repo.ts";
import { nameFromAddress, partiesOf, SENT_FOLDER, type Party } from "./mail-addresses.ts";

/** Mail headers read per round trip while building. */
const MAIL_BATCH = 2_000;

/**
 * Brings a user's people up to date with what was synced (decision 096): a person per contact card, per address the
 * user has written to, and per attendee of their meetings; each address once, so a merged or hidden person is never
 * made again. Mail is read once (from the last message read), cards and events whole (they are small). Someone who
 * only ever wrote to the user gets a page once the user writes back or meets them: a newsletter is not a person.
 */
export async function buildPeople(repo: PeopleRepo, userId: number, now: Date): Promise<{ created: number }> {
  let created = 0;
  const own = new Set(await repo.ownAddresses(userId));

  /** The person holding the address, made (named after the party) when no one does; answers their id. */
  async function ensure(party: Party, fallbackName?: string): Promise<number | null> {
    if (own.has(party.address)) return null;
    const owners = await repo.owners(userId, [party.address]);
    const owner = owners.get(party.address);
    if (owner) {
      if (party.name) await repo.touchAddress(userId, party.address, { displayName: party.name });
      return owner.personId;
    }
    // Mail they sent before the user first wrote to them (or met them) counts as contact, and names them when the
    // invitation gave a bare address.
    const earlier = (await repo.mailWith(userId, [party.address], 1, { from: true }))[0];
    const signed = earlier ? partiesOf(earlier.fromAddress).find((sender) => sender.address === party.address)?.name : undefined;
    const personId = await repo.insertPerson({
      userId,
      name: party.name ?? fallbackName ?? signed ?? nameFromAddress(party.address),
      organisation: null,
      role: null,
      cardUid: null,
    });
    await repo.addAddress({ userId, address: party.address, personId, displayName: party.name ?? signed ?? null, lastContactAt: null });
    if (earlier?.date) await repo.touchAddress(userId, party.address, { lastContactAt: earlier.date });
    created++;
    return personId;
  }

  // Contact cards: the card names the person; its addresses join whoever already holds one of them.
  for (const card of await repo.cards(userId)) {
    const emails = (JSON.parse(card.emails) as string[]).filter((address) => !own.has(address));
    const owners = await repo.owners(userId, emails);
    const holder = [...owners.values()][0]?.personId ?? (await repo.personWithCard(userId, card.uid))?.id;
    // A card's organisation and role win over a signature's; one it leaves empty keeps what the mail said.
    const fields = {
      name: card.name,
      cardUid: card.uid,
      ...(card.organisation ? { organisation: card.organisation } : {}),
      ...(card.role ? { role: card.role } : {}),
    };
    let personId = holder;
    if (personId === undefined) {
      personId = await repo.insertPerson({ userId, organisation: null, role: null, ...fields });
      created++;
    } else await repo.updatePerson(userId, personId, fields);
    for (const address of emails) if (!owners.has(address)) await repo.addAddress({ userId, address, personId, displayName: null, lastContactAt: null });
  }

  // Mail since the last build: whom the user wrote to, and when each address was last in touch.
  let after = await repo.watermark(userId);
  for (;;) {
    const batch = await repo.mailAfter(userId, after, MAIL_BATCH);
    if (batch.length === 0) break;
    for (const message of batch) {
      const from = partiesOf(message.fromAddress);
      const sent = SENT_FOLDER.test(message.folder) || from.some((party) => own.has(party.address));
      if (sent) for (const party of from) own.add(party.address);
      const at = message.date ?? undefined;
      if (sent) {
        for (const party of partiesOf(message.toAddress)) {
          if ((await ensure(party)) !== null && at) await repo.touchAddress(userId, party.address, { lastContactAt: at });
        }
      } else {
        for (const party of from)
          await repo.touchAddress(userId, party.address, { ...(at ? { lastContactAt: at } : {}), ...(party.name ? { displayName: party.name } : {}) });
      }
    }
    after = batch.at(-1)!.id;
    await repo.setWatermark(userId, after);
    if (batch.length < MAIL_BATCH) break;
  }

  // Meetings: everyone invited with the user; a meeting held counts as contact.
  for (const event of await repo.events(userId)) {
    const attendees = (JSON.parse(event.attendees) as string[]).flatMap(partiesOf);
    if (attendees.filter((party) => !own.has(party.address)).length === 0) continue;
    for (const party of attendees) {
      if ((await ensure(party)) === null) continue;
      if (event.endAt <= now.toISOString()) await repo.touchAddress(userId, party.address, { lastContactAt: event.endAt });
    }
  }
  return { created };
}
