import { argumentLabel, argumentText } from "../tool-in-words";

/** A tool's input as labelled lines ("Flight number: LX318"), the way a person reads a form. */
export function ToolArguments({ args, label = "Input" }: { args: Record<string, unknown>; label?: string }) {
  const entries = Object.entries(args);
  if (entries.length === 0) return <p className="text-muted-foreground">No input</p>;
  return (
    <dl aria-label={label} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md bg-background p-2">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-medium">{argumentLabel(key)}</dt>
          <dd className="min-w-0 whitespace-pre-wrap break-words">{argumentText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
