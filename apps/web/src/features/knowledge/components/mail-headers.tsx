const HEADER_NAMES = ["From", "To", "Cc", "Date", "Subject"] as const;
const HEADER_LINE = /^(From|To|Cc|Date|Subject): (.*)$/;

/**
 * A mail's text as the server reads it (mail-message.ts): its From, To, Cc, Date and Subject lines, a blank line,
 * then the body. Splits them, so the preview shows the headers as a message's head above its text; null when the
 * text does not start that way.
 */
export function splitMailHeaders(text: string): { headers: [string, string][]; body: string } | null {
  const lines = text.split("\n");
  const headers: [string, string][] = [];
  let index = 0;
  for (; index < lines.length; index++) {
    const match = HEADER_LINE.exec(lines[index]!);
    if (!match) break;
    headers.push([match[1]!, match[2]!]);
  }
  if (headers.length === 0 || (index < lines.length && lines[index]!.trim() !== "")) return null;
  headers.sort((a, b) => HEADER_NAMES.indexOf(a[0] as (typeof HEADER_NAMES)[number]) - HEADER_NAMES.indexOf(b[0] as (typeof HEADER_NAMES)[number]));
  return { headers, body: lines.slice(index + 1).join("\n") };
}

/** From, To, Cc, Date and Subject, as a mail program shows them above the message. */
export function MailHeaders({ headers }: { headers: [string, string][] }) {
  return (
    <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-b pb-2 text-sm" aria-label="Mail headers" data-testid="mail-headers">
      {headers.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="font-medium text-muted-foreground">{name}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
