import type { CitedLine } from "@sage/contracts/cited-lines";
import type { Citation } from "@sage/contracts/conversations";
import type { Person } from "@sage/contracts/people";
import { mailCitation, mailProvenance, partiesOf, shortDay, type MailHeader } from "../people/people.module.ts";

/** The meeting itself: its invitation's text is its organiser's words (untrusted content, issue 47). */
export interface DossierEvent {
  id: number;
  title: string;
  startAt: string;
  description: string;
}

/** A document shared in a mail with these people (its attachment) or named in the invitation. */
export interface DossierDocument {
  itemId: number;
  name: string;
  /** The mail it came with; absent for a document the invitation names. */
  mail?: MailHeader;
}

/** The notes the user added after an earlier meeting with the same people ("Add notes"). */
export interface DossierNotes {
  itemId: number;
  name: string;
  eventTitle: string;
  eventStartAt: string;
  text: string;
}

/** Where a dossier's lines come from (decisions 097, 099). */
export interface DossierSources {
  event?: DossierEvent;
  people: Person[];
  lastMail: Map<number, MailHeader>;
  documents?: DossierDocument[];
  lastNotes?: DossierNotes;
}

/** How much of the invitation and of the notes a line quotes. */
const QUOTE_CHARS = 300;
const quote = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1).trimEnd()}…` : flat;
};

const invitationSource = (event: DossierEvent) => ({ title: `the invitation to ${event.title} of ${shortDay(event.startAt)}` });

const eventCitation = (event: DossierEvent, content: string): Citation => ({
  n: 1,
  fileId: 0,
  filename: event.title,
  source: `Invitation, ${shortDay(event.startAt)}`,
  score: 1,
  content,
  kind: "event",
});

const personCitation = (person: Person, content: string): Citation => ({
  n: 1,
  fileId: 0,
  filename: person.name,
  source: "People",
  score: 1,
  content,
  kind: "person",
  href: `/people/${person.id}`,
});

const numbered = (citations: Omit<Citation, "n">[]): Citation[] => citations.map((citation, index) => ({ ...citation, n: index + 1 }));

/**
 * The dossier's lines (decisions 097, 099), each citing its source: what the invitation says, who is coming (their
 * page), the last mail with them, the open commitments both ways (the sentence each was read from), the documents
 * shared or mentioned, and the notes of the last meeting with them. A line with nothing to cite is left out; a line
 * quoting someone else's words (a mail, the invitation, an attachment's name) says whose (`from`).
 */
export function dossierLines(sources: DossierSources): CitedLine[] {
  const lines: CitedLine[] = [];
  const { event } = sources;
  const said = event ? quote(event.description) : "";
  if (event && said) {
    lines.push({ text: `The invitation says: "${said}"`, citations: [eventCitation(event, event.description.slice(0, 2000))], from: invitationSource(event) });
  }
  for (const person of sources.people) {
    const work = [person.role, person.organisation].filter(Boolean).join(", ");
    const who = `${person.name}${work ? `, ${work}` : ""}${person.lastContactAt ? `; last in touch ${shortDay(person.lastContactAt)}` : ""}.`;
    // A page that holds nothing but a name (someone only seen in an invitation) is nothing on file.
    if (work || person.lastContactAt) lines.push({ text: who, citations: [personCitation(person, who)] });
    const mail = sources.lastMail.get(person.id);
    const cited = mail ? mailCitation(mail, mail.subject) : null;
    if (mail && cited)
      lines.push({
        text: `Last mail with ${person.name}: "${mail.subject || "(no subject)"}", ${shortDay(mail.date)}.`,
        citations: numbered([cited]),
        from: mailProvenance(mail),
      });
    for (const commitment of person.openCommitments) {
      const text =
        commitment.direction === "mine"
          ? `You owe ${person.name}: ${commitment.what}${commitment.dueDate ? ` (due ${commitment.dueDate})` : ""}.`
          : `${person.name} owes you: ${commitment.what}${commitment.dueDate ? ` (due ${commitment.dueDate})` : ""}.`;
      const source = commitment.source;
      if (source.itemId === null) continue;
      lines.push({
        text,
        citations: numbered([
          {
            fileId: source.itemId,
            filename: source.title,
            source: source.kind === "mail" ? `Mail, ${shortDay(source.date)}` : source.title,
            score: 1,
            content: commitment.quote,
            kind: "file",
          },
        ]),
      });
    }
  }
  for (const document of sources.documents ?? []) {
    const citation = { n: 1, fileId: document.itemId, filename: document.name, source: "Documents", score: 1, content: document.name, kind: "file" as const };
    if (document.mail) {
      const sender = partiesOf(document.mail.fromAddress)[0];
      lines.push({
        text: `Shared by ${sender?.name ?? sender?.address ?? "an unknown sender"} on ${shortDay(document.mail.date)}: ${document.name}.`,
        citations: [citation],
        from: mailProvenance(document.mail),
      });
    } else if (event) lines.push({ text: `Named in the invitation: ${document.name}.`, citations: [citation], from: invitationSource(event) });
  }
  const notes = sources.lastNotes;
  if (notes && notes.text.trim()) {
    lines.push({
      text: `Your notes of ${notes.eventTitle}, ${shortDay(notes.eventStartAt)}: "${quote(notes.text)}"`,
      citations: [{ n: 1, fileId: notes.itemId, filename: notes.name, source: "Your notes", score: 1, content: notes.text.slice(0, 2000), kind: "file" }],
    });
  }
  return lines;
}
