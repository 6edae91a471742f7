/** How a tool server's failures are put in words: what its program printed, and why a connection failed. */

/** Lines of a crash report that say where, not what: stack frames, source echo, the runtime's version footer. */
const NOISE = [
  /^Node\.js v\d/,
  /^at\s/,
  /^\^+$/,
  /^throw\s/,
  /^(?:node:)?internal[/:]/,
  /^[{}[\]]+$/,
  /^Traceback \(most recent call last\):$/,
  /^File ".*", line \d+/,
  /^[a-z][A-Za-z]*: (?:'.*'|\[.*\]|-?\d+),?$/,
];
/** A line naming an error: `Error: Cannot find module ...`, `ModuleNotFoundError: No module named ...`, `panic: ...`. */
const ERROR_LINE = /^(?:Uncaught\s+)?(?:[\w$.]*(?:Error|Exception)|error|fatal|panic)(?:\s*\[[^\]]*\])?\s*:\s*\S/i;
const SAYS_ERROR = /\b(?:error|err!|fatal)\b/i;
const WORDS_OF_FAILURE = /\b(?:cannot|can't|could not|not found|no such|denied|failed)\b/i;

/**
 * The line of a program's error output that says what went wrong: the first line naming an error (Node prints the
 * cause before its stack and ends with its version, "Node.js v20.20.2"; Python ends with it), else the first line
 * that says error, else one that sounds like a failure, else the last line that is not a stack frame.
 */
export function errorLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !NOISE.some((pattern) => pattern.test(line)));
  return (
    lines.find((line) => ERROR_LINE.test(line)) ??
    lines.find((line) => SAYS_ERROR.test(line)) ??
    lines.find((line) => WORDS_OF_FAILURE.test(line)) ??
    lines.at(-1)
  );
}

const CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "unknown host",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "the connection closed",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
};

type Cause = { code?: unknown; cause?: unknown; message?: string } | undefined;

/** When a request failed because the connection could not be made or was cut: why, in a few words. */
export function connectionLost(error: unknown): string | undefined {
  for (let cause = error as Cause, depth = 0; cause && depth < 5; cause = cause.cause as Cause, depth++) {
    if (typeof cause.code === "string" && CODES[cause.code]) return CODES[cause.code];
    const named = Object.keys(CODES).find((code) => cause!.message?.includes(code));
    if (named) return CODES[named];
    if (/\bterminated\b|other side closed|socket hang up/i.test(cause.message ?? "")) return "the connection closed";
  }
  return undefined;
}

/**
 * Why an HTTP request to a tool server failed, in a few words: a lost connection (undici hides its code in
 * `cause`), the HTTP status the server answered (the SDK's errors carry it as `code`), or the message.
 */
export function networkCause(error: unknown): string {
  const lost = connectionLost(error);
  if (lost) return lost;
  const code = (error as Cause)?.code;
  const message = (error as Error)?.message ?? String(error);
  const status = typeof code === "number" && code >= 400 && code < 600 ? code : message.match(/\bstatus code \(?(\d{3})\)?/i)?.[1];
  return status ? `the server answered HTTP ${status}` : message;
}
