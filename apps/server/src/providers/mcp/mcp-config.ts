import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";

const stdioEntrySchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  /** Whether users start out trusting the server's hints (read-only tools run without a card); default true. */
  trusted: z.boolean().optional(),
});
/**
 * A remote server each user signs in to (decision 080): SAGE registers itself with the server's authorization
 * server, or uses the client id the administrator registered.
 */
const signInSchema = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
});
const httpEntrySchema = z.object({
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Each user signs in (their own token, never another's); false or absent: the file's headers, shared. */
  oauth: signInSchema.optional(),
  /** As for programs; default false for a server each user signs in to, true otherwise. */
  trusted: z.boolean().optional(),
});

export type McpStdioEntry = z.infer<typeof stdioEntrySchema>;
export type McpHttpEntry = z.infer<typeof httpEntrySchema>;
export type McpSignInSettings = z.infer<typeof signInSchema>;

/** One server of the file: its settings, or why they could not be read (the other servers still work). */
export type McpServerEntry =
  | { name: string; transport: "stdio"; stdio: McpStdioEntry }
  | { name: string; transport: "http"; http: McpHttpEntry }
  | { name: string; transport: "stdio" | "http"; error: string };

export interface McpConfigFile {
  servers: McpServerEntry[];
  /** The whole file could not be read (bad JSON, no mcpServers object). */
  error?: string;
}

const describeIssues = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`).join("; ");

/**
 * Reads the ecosystem's `{ "mcpServers": { name: { command, args, env } | { url, headers } } }` file. A missing
 * file means no servers; a bad entry is kept with its error so Settings can show it.
 */
export function readMcpConfig(path: string): McpConfigFile {
  if (!existsSync(path)) return { servers: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { servers: [], error: `${path} is not valid JSON: ${(error as Error).message}` };
  }
  const root = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).safeParse(raw);
  if (!root.success) return { servers: [], error: `${path} needs an "mcpServers" object` };
  return {
    servers: Object.entries(root.data.mcpServers).map(([name, entry]): McpServerEntry => {
      const isHttp = typeof entry === "object" && entry !== null && "url" in entry;
      if (isHttp) {
        const parsed = httpEntrySchema.safeParse(entry);
        return parsed.success
          ? { name, transport: "http", http: parsed.data }
          : { name, transport: "http", error: `Invalid server entry: ${describeIssues(parsed.error)}` };
      }
      const parsed = stdioEntrySchema.safeParse(entry);
      return parsed.success
        ? { name, transport: "stdio", stdio: parsed.data }
        : { name, transport: "stdio", error: `Invalid server entry: needs "command" (a program) or "url". ${describeIssues(parsed.error)}` };
    }),
  };
}
