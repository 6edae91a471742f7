/** Parses a turn's server-sent event body into [event, data] pairs. */
export function turnEvents(body: string): [string, any][] {
  return body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => [/^event: (.*)$/m.exec(block)![1]!, JSON.parse(/^data: (.*)$/m.exec(block)![1]!)]);
}
