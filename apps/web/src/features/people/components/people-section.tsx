import type { Citation } from "@sage/contracts/conversations";
import type { Person } from "@sage/contracts/people";
import { useState } from "react";
import { Input } from "@/components/ui/input";
import { usePeople } from "../api/people";
import { lastContactText } from "../last-contact";
import { PersonPage } from "./person-page";

export const PEOPLE_SECTION_TEXTS = {
  intro:
    "Everyone you deal with: from your address book, the people you write to and those in your meetings. Each page shows what SAGE knows, and where it read it; correct anything and your correction stays.",
  empty: "No one yet. Connect your mail, calendar or an address book in Settings > Accounts.",
  noMatch: "No one matches this search.",
  hiddenEmpty: "No one is hidden.",
} as const;

/** Settings > People: search the people, open one's page (`person` in the address), or list the hidden ones. */
export function PeopleSection({
  personId,
  onOpenPerson,
  onOpenSource,
}: {
  personId: number | null;
  onOpenPerson(id: number | null): void;
  onOpenSource(citation: Citation): void;
}) {
  const [query, setQuery] = useState("");
  const [hidden, setHidden] = useState(false);
  const people = usePeople(query, hidden);
  if (personId !== null) return <PersonPage id={personId} onBack={() => onOpenPerson(null)} onOpenPerson={onOpenPerson} onOpenSource={onOpenSource} />;
  const list = people.data ?? [];
  return (
    <section aria-labelledby="people-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="people-heading" className="text-xl font-semibold">
          People
        </h2>
        <p className="text-sm text-muted-foreground">{PEOPLE_SECTION_TEXTS.intro}</p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Input
          type="search"
          className="max-w-sm"
          placeholder="Search people..."
          aria-label="Search people"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={hidden} onChange={(event) => setHidden(event.target.checked)} />
          Show hidden people
        </label>
      </div>
      {people.isError && <p className="text-sm text-destructive">Failed to load the people</p>}
      {people.isSuccess && list.length === 0 && (
        <p className="text-sm text-muted-foreground">
          {hidden ? PEOPLE_SECTION_TEXTS.hiddenEmpty : query ? PEOPLE_SECTION_TEXTS.noMatch : PEOPLE_SECTION_TEXTS.empty}
        </p>
      )}
      <ul aria-label="People" className="grid gap-2">
        {list.map((person) => (
          <PersonRow key={person.id} person={person} onOpen={() => onOpenPerson(person.id)} />
        ))}
      </ul>
    </section>
  );
}

function PersonRow({ person, onOpen }: { person: Person; onOpen(): void }) {
  const work = [person.role, person.organisation].filter(Boolean).join(", ");
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="grid w-full gap-0.5 rounded-md border p-3 text-left hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="font-medium">{person.name}</span>
        <span className="text-sm text-muted-foreground">
          {[work, person.addresses[0], `last contact ${lastContactText(person.lastContactAt)}`].filter(Boolean).join(" · ")}
        </span>
      </button>
    </li>
  );
}
