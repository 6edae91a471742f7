import type { CitedLine } from "@sage/contracts/cited-lines";
import type { Citation } from "@sage/contracts/conversations";
import type { Person } from "@sage/contracts/people";
import { mailCitation, mailProvenance, shortDay, type MailHeader } from "../people/people.module.ts";

/** Where a dossier's lines come from: the people coming, and the last mail with each. */
export interface DossierSources {
  people: Person[];
  lastMail: Map<number, MailHeader>;
}

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
 * The dossier's lines (decision 097), each citing its source: who is coming (their page), the last mail with them,
 * and the open commitments both ways (the sentence each was read from). A line with nothing to cite is left out.
 */
export function dossierLines(sources: DossierSources): CitedLine[] {
  const lines: CitedLine[] = [];
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
  return lines;
}
