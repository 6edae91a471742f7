import type { CitedLine } from "@sage/contracts/cited-lines";
import type { Citation } from "@sage/contracts/conversations";
import type { Person } from "@sage/contracts/people";
import { format } from "date-fns";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toastError } from "@/components/ui/toast-error";
import { usePeople, usePerson, usePersonActions } from "../api/people";
import { lastContactText } from "../last-contact";

const failed = (error: unknown) => toastError({ error, fallback: "Something went wrong" });

/**
 * One person's page: who they are, how to reach them, when you were last in touch, the next meeting, what is open
 * between you, and a short profile whose every line names its source (and whose words came from their own mail).
 * Correct, merge with another person, hide.
 */
export function PersonPage({
  id,
  onBack,
  onOpenPerson,
  onOpenSource,
}: {
  id: number;
  onBack(): void;
  onOpenPerson(id: number): void;
  onOpenSource(citation: Citation): void;
}) {
  const person = usePerson(id);
  const actions = usePersonActions(id);
  const [editing, setEditing] = useState(false);
  const [merging, setMerging] = useState(false);
  if (person.isPending) return <p className="text-sm text-muted-foreground">Loading...</p>;
  if (person.isError || !person.data)
    return (
      <div className="grid gap-2">
        <p className="text-sm text-destructive">This person could not be found.</p>
        <Button type="button" variant="outline" className="w-fit" onClick={onBack}>
          Back to people
        </Button>
      </div>
    );
  const data = person.data;
  const work = [data.role, data.organisation].filter(Boolean).join(", ");
  return (
    <article aria-labelledby="person-heading" className="grid gap-4" data-testid="person-page">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <Button type="button" variant="ghost" size="sm" className="w-fit px-0" onClick={onBack}>
            ← People
          </Button>
          <h2 id="person-heading" className="text-xl font-semibold">
            {data.name}
          </h2>
          {work && <p className="text-sm">{work}</p>}
          <p className="text-sm text-muted-foreground">{data.addresses.join(", ") || "No address on file"}</p>
          {data.groups.length > 0 && <p className="text-sm text-muted-foreground">{`Groups: ${data.groups.join(", ")}`}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
            Correct
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => setMerging((open) => !open)}>
            Merge with...
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={actions.update.isPending}
            onClick={() => actions.update.mutate({ hidden: !data.hidden }, { onSuccess: () => (data.hidden ? undefined : onBack()), onError: failed })}
          >
            {data.hidden ? "Show again" : "Hide"}
          </Button>
        </div>
      </div>
      {merging && <MergePicker person={data} onMerged={() => setMerging(false)} onOpenPerson={onOpenPerson} />}
      {editing && <CorrectionForm person={data} onDone={() => setEditing(false)} />}
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-muted-foreground">Last contact</dt>
        <dd>{lastContactText(data.lastContactAt)}</dd>
        <dt className="text-muted-foreground">Next meeting</dt>
        <dd>{data.nextMeeting ? `${data.nextMeeting.title}, ${format(new Date(data.nextMeeting.start), "EEE d MMM, HH:mm")}` : "None planned"}</dd>
      </dl>
      <section aria-labelledby="person-commitments" className="grid gap-1">
        <h3 id="person-commitments" className="font-medium">
          Open between you
        </h3>
        {data.openCommitments.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing open.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {data.openCommitments.map((commitment) => (
              <li key={commitment.id}>
                {`${commitment.direction === "mine" ? "You owe them" : "They owe you"}: ${commitment.what}${commitment.dueDate ? `, due ${commitment.dueDate}` : ""}`}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="person-profile" className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id="person-profile" className="font-medium">
            Profile
          </h3>
          {!data.corrected.includes("profile") && (
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={actions.profile.isPending}
              onClick={() => actions.profile.mutate(undefined, { onError: failed })}
            >
              {actions.profile.isPending ? "Writing..." : "Write again"}
            </Button>
          )}
        </div>
        {data.profile.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing on file about this person yet.</p>
        ) : (
          <ul aria-label="Profile" className="grid gap-2">
            {data.profile.map((line, index) => (
              <ProfileLine key={index} line={line} onOpenSource={onOpenSource} />
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

function ProfileLine({ line, onOpenSource }: { line: CitedLine; onOpenSource(citation: Citation): void }) {
  return (
    <li className="grid gap-0.5 text-sm">
      <span>{line.text}</span>
      <span className="flex flex-wrap gap-2 text-xs text-muted-foreground">
        {line.from && <span>{`From ${line.from.title}`}</span>}
        {line.citations.map((citation) =>
          citation.kind === "file" ? (
            <button key={citation.n} type="button" className="text-primary underline-offset-2 hover:underline" onClick={() => onOpenSource(citation)}>
              {`Source: ${citation.filename}`}
            </button>
          ) : (
            <span key={citation.n}>{`Source: ${citation.source === "your correction" ? "your correction" : `${citation.filename}, ${citation.source}`}`}</span>
          ),
        )}
      </span>
    </li>
  );
}

function CorrectionForm({ person, onDone }: { person: Person; onDone(): void }) {
  const actions = usePersonActions(person.id);
  const id = useId();
  const [name, setName] = useState(person.name);
  const [organisation, setOrganisation] = useState(person.organisation ?? "");
  const [role, setRole] = useState(person.role ?? "");
  const [profile, setProfile] = useState(person.profile.map((line) => line.text).join("\n"));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines = profile
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const original = person.profile.map((line) => line.text).join("\n");
    actions.update.mutate(
      {
        ...(name.trim() !== person.name ? { name: name.trim() } : {}),
        ...(organisation.trim() !== (person.organisation ?? "") ? { organisation: organisation.trim() || null } : {}),
        ...(role.trim() !== (person.role ?? "") ? { role: role.trim() || null } : {}),
        ...(lines.join("\n") !== original ? { profile: lines.length ? lines : null } : {}),
      },
      { onSuccess: onDone, onError: failed },
    );
  };
  const field = (key: string, label: string, value: string, set: (value: string) => void) => (
    <div className="grid gap-1">
      <label htmlFor={`${id}-${key}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${key}`} value={value} onChange={(event) => set(event.target.value)} />
    </div>
  );
  return (
    <form onSubmit={submit} aria-label={`Correct ${person.name}`} className="grid gap-3 rounded-md border p-3">
      <div className="grid gap-3 sm:grid-cols-3">
        {field("name", "Name", name, setName)}
        {field("organisation", "Organisation", organisation, setOrganisation)}
        {field("role", "Role", role, setRole)}
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-profile`} className="text-sm font-medium">
          Profile, one line each (your lines replace SAGE's)
        </label>
        <Textarea id={`${id}-profile`} rows={4} value={profile} onChange={(event) => setProfile(event.target.value)} />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={actions.update.isPending}>
          {actions.update.isPending ? "Saving..." : "Save"}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function MergePicker({ person, onMerged, onOpenPerson }: { person: Person; onMerged(): void; onOpenPerson(id: number): void }) {
  const [query, setQuery] = useState("");
  const candidates = usePeople(query).data?.filter((other) => other.id !== person.id) ?? [];
  const actions = usePersonActions(person.id);
  return (
    <section aria-label="Merge with another person" className="grid gap-2 rounded-md border p-3">
      <p className="text-sm">{`The same person under another address? Pick them: their mail, meetings and addresses become ${person.name}'s.`}</p>
      <Input
        type="search"
        aria-label="Search the person to merge"
        placeholder="Search people..."
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul className="grid gap-1">
        {candidates.slice(0, 8).map((other) => (
          <li key={other.id} className="flex items-center justify-between gap-2 text-sm">
            <span>{`${other.name} · ${other.addresses.join(", ")}`}</span>
            <Button
              type="button"
              size="sm"
              variant="outline"
              aria-label={`Merge ${other.name} into ${person.name}`}
              disabled={actions.merge.isPending}
              onClick={() =>
                actions.merge.mutate(other.id, {
                  onSuccess: (merged) => {
                    onMerged();
                    onOpenPerson(merged.id);
                  },
                  onError: failed,
                })
              }
            >
              Merge
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
