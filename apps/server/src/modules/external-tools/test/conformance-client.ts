/**
 * The client the official MCP conformance suite drives (`conformance client --command "node <this, bundled>"`):
 * SAGE's own connection (providers/mcp), its own answering of a server's questions (elicitations.ts) and its own
 * sign-in (server-sign-in.ts over the sign-in module's grants, in a store of its own), with a scripted user who
 * accepts every form as it stands (its defaults) and whose browser follows the authorization server's redirect.
 * The suite passes the server's address as the last argument, the scenario in MCP_CONFORMANCE_SCENARIO and, for
 * some scenarios, a registration in MCP_CONFORMANCE_CONTEXT; a failure exits 1.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JsonSchema } from "../../../providers/llm/llm.ts";
import { createMcpConnection, McpSignInNeeded, type McpConnection } from "../../../providers/mcp/mcp-connection.ts";
import { mcpFetch } from "../../../providers/mcp/mcp-fetch.ts";
import { openStore } from "../../../store/open-store.ts";
import { createSecretBox } from "../../../store/secret-box.ts";
import { createSignInModule } from "../../sign-in/sign-in.module.ts";
import { createElicitations } from "../elicitations.ts";
import { createServerSignIns, type SignInServer } from "../server-sign-in.ts";
import { createToolServersRepo } from "../tool-servers.repo.ts";

const url = process.argv.at(-1)!;
const log = (message: string, error?: unknown) => console.error(message, error ?? "");
/** An https public address, so SAGE offers its client metadata document where the server takes one (SEP-991). */
const PUBLIC_URL = "https://sage.conformance.test";
/** The suite's own address for a client metadata document (auth/basic-cimd checks the client id is exactly it). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** How often the scripted user signs in again for one call (a server that keeps asking for more scope is refused). */
const SIGN_IN_ATTEMPTS = 3;

/** Arguments a tool's input schema accepts: a number for numbers, a word for text. */
function sampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      property.type === "number" || property.type === "integer" ? 2 : property.type === "boolean" ? true : "conformance",
    ]),
  );
}

/** A pre-registered client the suite gives (auth/pre-registration): the administrator's mcp.json `oauth`. */
function configuredClient(): SignInServer["oauth"] {
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, string>) : {};
  return context.client_id ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) } : undefined;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sage-conformance-"));
  const store = openStore({
    dataDir,
    backgroundCheckpoints: false,
    ...(process.env.SAGE_CONFORMANCE_MIGRATIONS ? { migrationsDir: process.env.SAGE_CONFORMANCE_MIGRATIONS } : {}),
  });
  try {
    const { id: userId } = await store.db
      .insertInto("users")
      .values({ username: "conformance", passwordHash: "-", createdAt: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const signInModule = createSignInModule({
      store,
      box: createSecretBox(randomBytes(32)),
      config: { publicUrl: PUBLIC_URL, google: null, microsoft: null, oidc: null, testEndpoints: null },
      secureCookies: true,
      warn: log,
    });
    const fetch = mcpFetch({ allowPrivate: true, allowHosts: [] });
    const signIns = createServerSignIns({
      grants: signInModule.port.external,
      repo: createToolServersRepo(store.db),
      fetchFor: () => fetch,
      publicUrl: PUBLIC_URL,
      clientMetadataUrl: CLIENT_METADATA_URL,
      warn: log,
    });
    const oauth = configuredClient();
    const server: SignInServer = { userId, id: "conformance", url, ...(oauth ? { oauth } : {}) };
    const connection = createMcpConnection(
      { name: "conformance", transport: "http", http: { url, headers: {} } },
      { timeoutMs: 60_000, backoffMs: 1_000, log, fetch, auth: () => signIns.connectionAuth(server) },
    );
    try {
      await run(connection, userId, server, signIns);
    } finally {
      await connection.close();
    }
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The user presses Sign in: SAGE's flow starts, the browser follows the authorization server, SAGE's callback ends it. */
async function signIn(connection: McpConnection, userId: number, server: SignInServer, signIns: ReturnType<typeof createServerSignIns>) {
  const browser = randomBytes(24).toString("base64url");
  const authorization = await signIns.start(server, { origin: PUBLIC_URL, browser });
  if (authorization) {
    const answer = await fetch(authorization, { redirect: "manual" });
    const location = answer.headers.get("location");
    if (!location) throw new Error(`the authorization server did not send the browser back (${answer.status})`);
    const callback = new URL(location, authorization);
    const flow = await signIns.finishFlow({ userId, state: callback.searchParams.get("state") ?? undefined, browser });
    const code = callback.searchParams.get("code");
    if (!code || !flow.secrets?.verifier) throw new Error(`the sign-in ended without a code: ${callback.search}`);
    await signIns.redeem(server, flow.grantId, { code, verifier: flow.secrets.verifier, redirectUri: flow.redirectUri });
  }
  await connection.restart();
}

/** Does `work`, signing in whenever the server asks, a few times at most. */
async function signedIn<T>(
  work: () => Promise<T>,
  connection: McpConnection,
  userId: number,
  server: SignInServer,
  signIns: ReturnType<typeof createServerSignIns>,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof McpSignInNeeded) || attempt >= SIGN_IN_ATTEMPTS) throw error;
      await signIn(connection, userId, server, signIns);
    }
  }
}

async function run(connection: McpConnection, userId: number, server: SignInServer, signIns: ReturnType<typeof createServerSignIns>) {
  const elicitations = createElicitations({ timeoutMs: 30_000 });
  const tools = await signedIn(() => connection.ensure(), connection, userId, server, signIns);
  for (const tool of tools) {
    const result = await signedIn(
      () =>
        connection.call(tool.name, sampleArguments(tool.inputSchema), {
          caller: {
            owner: "user:1",
            elicit: (question, signal) =>
              elicitations.ask(1, { id: "conformance", name: "conformance" }, question, signal, (request) =>
                // The user accepts the form as it stands: SAGE fills in each default (SEP-1034).
                queueMicrotask(() => elicitations.answer(1, request.elicitationId, { action: "accept", content: {} })),
              ),
          },
        }),
      connection,
      userId,
      server,
      signIns,
    );
    console.log(`${tool.name}: ${result.isError ? "error" : "ok"} ${result.text.slice(0, 200)}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error((error as Error)?.stack ?? error);
    process.exit(1);
  },
);
