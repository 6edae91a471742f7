import {
  ELICITATION_TEXTS,
  checkElicitationContent,
  elicitationFields,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationRequest,
} from "@sage/contracts/elicitation";
import { ExternalLinkIcon } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

type Values = Record<string, string | boolean | string[]>;

/** What each field shows at first: the server's default, else empty. */
function initialValues(fields: ElicitationField[]): Values {
  return Object.fromEntries(
    fields.map((field) => {
      if (field.kind === "boolean") return [field.name, field.default === true];
      if (field.kind === "choices") return [field.name, Array.isArray(field.default) ? field.default : []];
      return [field.name, field.default === undefined ? "" : String(field.default)];
    }),
  );
}

/** The form's values as the server's types: numbers as numbers, a date and time as ISO text; an empty field is left out. */
function contentOf(fields: ElicitationField[], values: Values): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") content[field.name] = value === true;
    else if (field.kind === "choices") {
      if ((value as string[]).length > 0) content[field.name] = value;
    } else if (value !== "") {
      if (field.kind === "number" || field.kind === "integer") content[field.name] = Number(value);
      else if (field.kind === "date-time") content[field.name] = Number.isNaN(Date.parse(String(value))) ? value : new Date(String(value)).toISOString();
      else content[field.name] = value;
    }
  }
  return content;
}

const INPUT_TYPES: Partial<Record<ElicitationField["kind"], string>> = {
  email: "email",
  uri: "url",
  date: "date",
  "date-time": "datetime-local",
  number: "number",
  integer: "number",
};

function FieldInput({ field, id, value, onChange }: { field: ElicitationField; id: string; value: Values[string]; onChange: (value: Values[string]) => void }) {
  if (field.kind === "boolean") {
    return (
      <label className="flex items-center gap-2">
        <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
        {field.label}
      </label>
    );
  }
  if (field.kind === "choice") {
    return (
      <select id={id} className="h-9 rounded-md border bg-background px-2" value={String(value)} onChange={(event) => onChange(event.target.value)}>
        <option value="">Choose...</option>
        {field.options!.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === "choices") {
    const picked = value as string[];
    return (
      <fieldset id={id} className="flex flex-wrap gap-3">
        <legend className="sr-only">{field.label}</legend>
        {field.options!.map((option) => (
          <label key={option.value} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={picked.includes(option.value)}
              onChange={(event) => onChange(event.target.checked ? [...picked, option.value] : picked.filter((item) => item !== option.value))}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <Input
      id={id}
      type={INPUT_TYPES[field.kind] ?? "text"}
      step={field.kind === "integer" ? 1 : field.kind === "number" ? "any" : undefined}
      min={field.minimum}
      max={field.maximum}
      value={String(value)}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * A tool server's question in the middle of a call (decision 080): a form of plain fields rendered from the server's
 * schema, with Accept / Decline / Cancel; or a page of the server to open (URL mode), shown by its full address and
 * opened only when the user presses Open. The answer goes only to the server that asked.
 */
export function ElicitationCard({ request, onAnswer }: { request: ElicitationRequest; onAnswer: (answer: ElicitationAnswer) => Promise<void> }) {
  const fields = request.mode === "form" ? (elicitationFields(request.schema) ?? []) : [];
  const [values, setValues] = useState<Values>(() => initialValues(fields));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState(false);
  const headingId = `elicitation-${request.elicitationId}`;
  const host = request.url ? new URL(request.url).host : "";

  const answer = async (value: ElicitationAnswer) => {
    setBusy(true);
    try {
      await onAnswer(value);
    } finally {
      setBusy(false);
    }
  };

  function accept(event: FormEvent) {
    event.preventDefault();
    const content = contentOf(fields, values);
    const checked = checkElicitationContent(fields, content);
    if ("problems" in checked) return setProblems(checked.problems);
    setProblems({});
    void answer({ action: "accept", content });
  }

  function openPage() {
    window.open(request.url, "_blank", "noopener,noreferrer");
    setOpened(true);
    void answer({ action: "accept" });
  }

  return (
    <li>
      <section
        role="group"
        aria-labelledby={headingId}
        className="flex flex-col gap-2 rounded-xl border border-border bg-muted/40 p-3 text-sm"
        data-testid="elicitation-card"
      >
        <h3 id={headingId} className="font-semibold">
          {request.server} asks
        </h3>
        <p className="whitespace-pre-wrap break-words">{request.message}</p>
        {request.mode === "url" ? (
          <>
            <p className="break-all" data-testid="elicitation-url">
              <span className="font-medium">{host}</span> <span className="text-muted-foreground">({request.url})</span>
            </p>
            {opened ? (
              <p role="status" className="text-muted-foreground">
                {ELICITATION_TEXTS.urlWaiting(host)}
              </p>
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button size="sm" disabled={busy} onClick={openPage}>
                  <ExternalLinkIcon aria-hidden /> Open {host}
                </Button>
                <Button size="sm" variant="outline" disabled={busy} onClick={() => void answer({ action: "decline" })}>
                  Decline
                </Button>
                <Button size="sm" variant="ghost" disabled={busy} onClick={() => void answer({ action: "cancel" })}>
                  Cancel
                </Button>
              </div>
            )}
          </>
        ) : (
          <form className="flex flex-col gap-3" onSubmit={accept} noValidate>
            {fields.map((field) => {
              const id = `${headingId}-${field.name}`;
              return (
                <div key={field.name} className="flex flex-col gap-1">
                  {field.kind !== "boolean" && (
                    <label htmlFor={id} className="font-medium">
                      {field.label}
                      {field.required ? <span aria-hidden> *</span> : null}
                    </label>
                  )}
                  {field.description && <p className="text-xs text-muted-foreground">{field.description}</p>}
                  <FieldInput field={field} id={id} value={values[field.name]!} onChange={(value) => setValues((all) => ({ ...all, [field.name]: value }))} />
                  {problems[field.name] && (
                    <p className="text-xs text-destructive" role="alert">
                      {field.label} {problems[field.name]}
                    </p>
                  )}
                </div>
              );
            })}
            <div className="flex flex-wrap gap-2">
              <Button size="sm" type="submit" disabled={busy}>
                Accept
              </Button>
              <Button size="sm" type="button" variant="outline" disabled={busy} onClick={() => void answer({ action: "decline" })}>
                Decline
              </Button>
              <Button size="sm" type="button" variant="ghost" disabled={busy} onClick={() => void answer({ action: "cancel" })}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </section>
    </li>
  );
}
