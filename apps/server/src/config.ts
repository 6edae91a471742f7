import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { oauthConfig, oauthEnvFields, type OAuthConfig } from "./config-oauth.ts";
import { OCR_LANGUAGE_CODE, PACKAGED_OCR_LANGUAGES, resolveOcrLanguages } from "./documents/ocr/ocr-languages.ts";

/** "sage.example.com", ".example.com" (with its subdomains), "192.168.1.20", "fd00::20" or "[fd00::20]"; no port. */
const isHostName = (name: string) => /^\.?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/i.test(name) || isIP(name.replace(/^\[(.*)\]$/, "$1")) !== 0;

const booleanString = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const webDirDefault = fileURLToPath(new URL("../../web/dist", import.meta.url));

/** The environment variables SAGE reads; README's configuration table mirrors this. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("127.0.0.1"),
  SAGE_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .refine(
      (names) => names.every(isHostName),
      "give host names or addresses without a scheme or port, separated by commas (a leading dot takes the subdomains too)",
    ),
  SAGE_DATA_DIR: z.string().min(1).default("./data"),
  SAGE_FILES_DIR: z.string().min(1).optional(),
  SAGE_WEB_DIR: z.string().min(1).optional(),
  SAGE_USERNAME: z.string().min(1).max(200).default("demo"),
  SAGE_PASSWORD: z.string().min(1).max(1000).optional(),
  SAGE_SESSION_DAYS: z.coerce.number().positive().default(30),
  SAGE_LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  SAGE_PASSWORD_COST: z.enum(["standard", "minimum"]).default("standard"),
  SAGE_SECURE_COOKIES: booleanString,
  SAGE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SAGE_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SAGE_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1_048_576),
  SAGE_BODY_TIMEOUT_S: z.coerce.number().positive().default(30),
  SAGE_SCHEDULER_TICK_S: z.coerce.number().int().min(1).max(3600).default(60),
  SAGE_UPLOAD_IDLE_TIMEOUT_S: z.coerce.number().positive().default(30),
  SAGE_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().positive().default(128),
  SAGE_DOCUMENT_MEMORY_MB: z.coerce.number().int().min(128).default(1024),
  SAGE_DOCUMENT_TIMEOUT_S: z.coerce.number().positive().default(600),
  SAGE_DOCUMENT_MAX_TOTAL_S: z.coerce.number().positive().default(14_400),
  SAGE_DOCUMENT_MAX_PAGES: z.coerce.number().int().positive().default(5000),
  SAGE_MAIL_MAX_ATTACHMENTS: z.coerce.number().int().min(0).max(10_000).default(100),
  SAGE_DOCUMENT_WARM: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((value) => value !== "false" && value !== "0"),
  SAGE_FETCH_ALLOW_PRIVATE: booleanString,
  SAGE_OCR_LANGUAGES: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.split(/[+,\s]+/).filter(Boolean) : PACKAGED_OCR_LANGUAGES))
    .refine((codes) => codes.every((code) => OCR_LANGUAGE_CODE.test(code)), "give Tesseract language codes joined by +, such as eng+fra+heb"),
  SAGE_OCR_DATA_DIR: z.string().min(1).optional(),
  SAGE_TIME_ZONE: z
    .string()
    .optional()
    .refine((value) => !value || isKnownZone(value), "give a time zone name such as Europe/Prague or America/New_York"),
  SAGE_PUSH_CONTACT: z
    .string()
    .optional()
    .refine(
      (value) => !value || /^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/i.test(value) || /^https:\/\/[^\s/]+\.[^\s/]+/i.test(value),
      "give a mailto: address or an https: page where the push services can reach you, such as mailto:it@example.com",
    ),
  SAGE_TELEGRAM_API_ROOT: z.string().url().default("https://api.telegram.org"),
  SAGE_SLACK_API_URL: z.string().url().default("https://slack.com/api/"),
  SAGE_ACCOUNT_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
  SAGE_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "give a postgres:// connection string")
    .optional(),
  SAGE_SECRET_KEY: z
    .string()
    .optional()
    .refine((value) => !value || secretKeyBytes(value) !== null, "give 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)"),
  SAGE_LLM_PROVIDER: z.enum(["gemini", "openai-compatible", "none"]).optional(),
  SAGE_CHAT_MODEL: z.string().min(1).default("gemini-2.0-flash"),
  SAGE_ALLOWED_MODELS: z.string().optional(),
  SAGE_MAX_TOOL_STEPS: z.coerce.number().int().min(1).max(50).default(5),
  SAGE_RESEARCH_MAX_QUESTIONS: z.coerce.number().int().min(1).max(10).default(4),
  SAGE_RESEARCH_MAX_PAGES: z.coerce.number().int().min(0).max(20).default(5),
  SAGE_RESEARCH_MAX_MINUTES: z.coerce.number().min(0.1).max(30).default(5),
  SAGE_MCP_CONFIG: z.string().min(1).optional(),
  SAGE_MCP_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  SAGE_MCP_APPROVAL_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  SAGE_MCP_MAX_RESULT_CHARS: z.coerce.number().int().min(100).default(20_000),
  SAGE_MCP_CLIENT_METADATA_URL: z
    .url()
    .refine(
      (value) => new URL(value).protocol === "https:" && new URL(value).pathname !== "/",
      "an https:// address with a path, where SAGE's client metadata document is served",
    )
    .optional(),
  GEMINI_API_KEY: z.string().optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  GEMINI_BASE_URL: z.string().url().optional(),
  SAGE_LLM_BASE_URL: z.string().url().optional(),
  SAGE_LLM_API_KEY: z.string().optional(),
  SAGE_LLM_VISION: booleanString,
  SAGE_EMBEDDER: z.enum(["auto", "gemini", "openai-compatible", "local", "none"]).default("auto"),
  SAGE_EMBEDDING_MODEL: z.string().optional(),
  SAGE_LOCAL_EMBEDDING_MODEL: z.string().default("Xenova/bge-small-en-v1.5"),
  SAGE_WEB_SEARCH: z.enum(["auto", "gemini", "searxng", "tavily", "brave", "none"]).default("auto"),
  SAGE_SEARXNG_URL: z.string().url().optional(),
  SAGE_TAVILY_API_KEY: z.string().optional(),
  SAGE_BRAVE_API_KEY: z.string().optional(),
  ...oauthEnvFields,
});

export type Env = z.infer<typeof envSchema>;

/** 32 bytes from 64 hex digits or base64; null for anything else (a passphrase is not a key). */
function isKnownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function secretKeyBytes(value: string): Buffer | null {
  const text = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, "base64") : null;
  return bytes?.length === 32 ? bytes : null;
}

export interface Config {
  port: number;
  host: string;
  /** Host names the server answers to besides its own address and localhost (DNS rebinding, decision 027). */
  allowedHosts: string[];
  dataDir: string;
  /**
   * Where uploaded and generated files are stored (SAGE_FILES_DIR, default <data>/uploads). A folder named by the
   * setting may be shared by several SAGE processes on one database (decision 054).
   */
  files: { dir: string; shared: boolean };
  /** PostgreSQL instead of SQLite in the data folder (SAGE_DATABASE_URL; decisions 051-060). */
  databaseUrl: string | null;
  webDir: string;
  demoUser: { username: string; password: string };
  sessionDays: number;
  loginRateLimit: number;
  /** How costly stored password hashes are to make (SAGE_PASSWORD_COST): argon2id's standard, or OWASP's minimum. */
  passwordCost: Env["SAGE_PASSWORD_COST"];
  secureCookies: boolean;
  logLevel: Env["SAGE_LOG_LEVEL"];
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** Slow clients (http/slow-clients.ts): a JSON body's whole time, an upload's longest pause, connections per address. */
  slowClients: { bodyMs: number; uploadIdleMs: number; connectionsPerClient: number };
  /**
   * Limits of the process that reads one uploaded document (documents/conversion-pool.ts), and
   * the only environment it gets: no API keys for a parser exploit to read.
   */
  documentLimits: {
    memoryMb: number;
    timeoutMs: number;
    maxTotalMs: number;
    maxPages: number;
    keepWarm: boolean;
    env: Record<string, string>;
    /** Attachments of one mail read as items (SAGE_MAIL_MAX_ATTACHMENTS), and the largest one (the upload limit). */
    mail: { maxAttachments: number; maxAttachmentBytes: number };
  };
  /** Languages text recognition reads, in order of preference, and the folder of data beyond the packaged ones. */
  ocr: OcrConfig;
  fetchAllowPrivate: boolean;
  /**
   * Mail and calendar servers on private addresses that accounts may reach although fetchAllowPrivate is off:
   * host or host:port, as typed in the account (a company's own mail server).
   */
  accountAllowHosts: string[];
  /** The key account secrets are encrypted with (SAGE_SECRET_KEY), or null: a key file in the data folder. */
  secretKey: Buffer | null;
  /** The time zone of a user who has not set one (SAGE_TIME_ZONE, else the server's own). */
  defaultTimeZone: string;
  /** How often at least each process's scheduler looks for due schedules (SAGE_SCHEDULER_TICK_S), in ms. */
  schedulerTickMs: number;
  /** Who push services may contact about this server's pushes (RFC 8292 "sub"; SAGE_PUSH_CONTACT). */
  pushContact: string;
  /**
   * The address users open SAGE at (SAGE_PUBLIC_URL, parsed with the sign-in settings), else the bound address: links
   * in channel messages point there.
   */
  publicUrl: string;
  /** Where channels reach their services (decision 075): Telegram's Bot API root, Slack's Web API. */
  channels: { telegramApiRoot: string; slackApiUrl: string };
  /** Model replies in one chat turn; each may run one tool. */
  maxToolSteps: number;
  /** A research run's limits (decision 046): questions planned (each searched on the web and in documents), pages read, minutes. */
  research: { maxQuestions: number; maxPages: number; maxMs: number };
  /** External tools: the administrator's MCP server file and the limits every call runs under. */
  mcp: {
    configPath: string;
    timeoutMs: number;
    approvalTimeoutMs: number;
    maxResultChars: number;
    /** Where SAGE's OAuth client metadata document is served, when not at SAGE's own public address (decision 080). */
    clientMetadataUrl: string | null;
  };
  llm: {
    provider: "gemini" | "openai-compatible" | "none";
    chatModel: string;
    allowedModels: string[];
    geminiApiKey?: string;
    geminiBaseUrl?: string;
    baseUrl?: string;
    apiKey?: string;
    /** Whether the OpenAI-compatible model sees pictures (SAGE_LLM_VISION); Gemini always does. */
    vision: boolean;
  };
  embedder: {
    kind: Env["SAGE_EMBEDDER"];
    model?: string;
    localModel: string;
  };
  webSearch: {
    kind: Env["SAGE_WEB_SEARCH"];
    searxngUrl?: string;
    tavilyApiKey?: string;
    braveApiKey?: string;
  };
  /** Sign-in with Google, Microsoft or the company's identity server (config-oauth.ts). */
  oauth: OAuthConfig;
}

export class ConfigError extends Error {}

export interface OcrConfig {
  languages: string[];
  dataDir?: string;
}

/**
 * Text recognition's languages. The document reader's processes call this with the environment the server gave them
 * (the two variables are passed on to them), so they read the languages the server checked at start.
 */
export function loadOcrConfig(env: NodeJS.ProcessEnv = process.env): OcrConfig {
  const parsed = envSchema.pick({ SAGE_OCR_LANGUAGES: true, SAGE_OCR_DATA_DIR: true }).safeParse(env);
  if (!parsed.success)
    throw new ConfigError(`Invalid configuration: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  const dataDir = parsed.data.SAGE_OCR_DATA_DIR ? path.resolve(parsed.data.SAGE_OCR_DATA_DIR) : undefined;
  return { languages: parsed.data.SAGE_OCR_LANGUAGES, ...(dataDir ? { dataDir } : {}) };
}

export const DEFAULT_DEMO_PASSWORD = "sage-demo";

export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1";
  return false;
}

/** What the document reader's process may see of the server's environment (paths and locale, never secrets). */
const CONVERSION_ENV = ["PATH", "HOME", "TMPDIR", "TMP", "TEMP", "LANG", "LC_ALL", "NODE_ENV", "TZ", "SAGE_OCR_LANGUAGES", "SAGE_OCR_DATA_DIR"];
const pickDefined = (env: NodeJS.ProcessEnv, names: string[]) =>
  Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]!]])));
/**
 * One malloc arena for the document reader and the OCR process it starts: glibc's per-thread arenas kept freed page
 * buffers resident (tesseract's worker thread and the renderer's: 263 MB against 217 MB with one, same pages).
 * A fixed mmap threshold keeps every buffer over 256 KB (a page's canvases, 18-35 MB each) in its own mapping, given
 * back when freed: glibc otherwise raises the threshold after the first such free and serves the next page's
 * canvases from the heap, which then stays at its high-water mark (OCR process between pages: 257 -> 218 MB).
 */
const CONVERSION_MALLOC = { MALLOC_ARENA_MAX: "1", MALLOC_MMAP_THRESHOLD_: "262144" };

/** The document readers' environment: the few variables they need (no secret), and one malloc arena. */
export function conversionEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { ...pickDefined(env, CONVERSION_ENV), ...CONVERSION_MALLOC };
}

/** The only reader of process.env: parses once, fails fast naming the bad keys. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  if (!e.SAGE_PASSWORD && !isLoopbackHost(e.HOST)) {
    throw new ConfigError(
      `Refusing to start: HOST=${e.HOST} is reachable from other machines, but SAGE_PASSWORD is not set, ` +
        `so the demonstration account would have the public default password. Set SAGE_PASSWORD, or bind HOST to 127.0.0.1.`,
    );
  }
  if (e.SAGE_DATABASE_URL && (!e.SAGE_SECRET_KEY || !e.SAGE_FILES_DIR)) {
    throw new ConfigError(
      "SAGE_DATABASE_URL is set, so several SAGE processes may share the database: each needs the same SAGE_SECRET_KEY " +
        "(saved passwords are sealed with it) and SAGE_FILES_DIR (a folder every process reads uploaded files from). Set both.",
    );
  }
  let oauth: OAuthConfig;
  try {
    oauth = oauthConfig(e);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  const ocr = loadOcrConfig(env);
  try {
    resolveOcrLanguages(ocr.languages, ocr.dataDir);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: SAGE_OCR_LANGUAGES: ${(error as Error).message}`);
  }
  const geminiApiKey = e.GEMINI_API_KEY || e.GOOGLE_GENERATIVE_AI_API_KEY || undefined;
  const provider = e.SAGE_LLM_PROVIDER ?? (geminiApiKey ? "gemini" : e.SAGE_LLM_BASE_URL ? "openai-compatible" : "none");
  const allowedModels = (e.SAGE_ALLOWED_MODELS ?? "")
    .split(",")
    .map((model) => model.trim())
    .filter(Boolean);
  if (!allowedModels.includes(e.SAGE_CHAT_MODEL)) allowedModels.unshift(e.SAGE_CHAT_MODEL);
  return {
    port: e.PORT,
    host: e.HOST,
    allowedHosts: e.SAGE_ALLOWED_HOSTS,
    dataDir: path.resolve(e.SAGE_DATA_DIR),
    files: { dir: path.resolve(e.SAGE_FILES_DIR ?? path.join(e.SAGE_DATA_DIR, "uploads")), shared: e.SAGE_FILES_DIR !== undefined },
    databaseUrl: e.SAGE_DATABASE_URL ?? null,
    webDir: path.resolve(e.SAGE_WEB_DIR ?? webDirDefault),
    demoUser: { username: e.SAGE_USERNAME, password: e.SAGE_PASSWORD ?? DEFAULT_DEMO_PASSWORD },
    sessionDays: e.SAGE_SESSION_DAYS,
    loginRateLimit: e.SAGE_LOGIN_RATE_LIMIT,
    passwordCost: e.SAGE_PASSWORD_COST,
    secureCookies: e.SAGE_SECURE_COOKIES,
    logLevel: e.SAGE_LOG_LEVEL,
    maxBodyBytes: e.SAGE_MAX_BODY_BYTES,
    maxUploadBytes: e.SAGE_MAX_UPLOAD_BYTES,
    slowClients: {
      bodyMs: e.SAGE_BODY_TIMEOUT_S * 1000,
      uploadIdleMs: e.SAGE_UPLOAD_IDLE_TIMEOUT_S * 1000,
      connectionsPerClient: e.SAGE_MAX_CONNECTIONS_PER_CLIENT,
    },
    documentLimits: {
      memoryMb: e.SAGE_DOCUMENT_MEMORY_MB,
      timeoutMs: e.SAGE_DOCUMENT_TIMEOUT_S * 1000,
      maxTotalMs: e.SAGE_DOCUMENT_MAX_TOTAL_S * 1000,
      maxPages: e.SAGE_DOCUMENT_MAX_PAGES,
      mail: { maxAttachments: e.SAGE_MAIL_MAX_ATTACHMENTS, maxAttachmentBytes: e.SAGE_MAX_UPLOAD_BYTES },
      keepWarm: e.SAGE_DOCUMENT_WARM,
      env: conversionEnv(env),
    },
    ocr,
    fetchAllowPrivate: e.SAGE_FETCH_ALLOW_PRIVATE,
    accountAllowHosts: e.SAGE_ACCOUNT_ALLOW_HOSTS,
    secretKey: e.SAGE_SECRET_KEY ? secretKeyBytes(e.SAGE_SECRET_KEY) : null,
    defaultTimeZone: e.SAGE_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    schedulerTickMs: e.SAGE_SCHEDULER_TICK_S * 1000,
    pushContact: e.SAGE_PUSH_CONTACT ?? "mailto:sage@localhost",
    publicUrl: (e.SAGE_PUBLIC_URL ?? `http://${isLoopbackHost(e.HOST) || e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST}:${e.PORT}`).replace(
      /\/+$/,
      "",
    ),
    channels: {
      telegramApiRoot: e.SAGE_TELEGRAM_API_ROOT.replace(/\/+$/, ""),
      slackApiUrl: e.SAGE_SLACK_API_URL.endsWith("/") ? e.SAGE_SLACK_API_URL : `${e.SAGE_SLACK_API_URL}/`,
    },
    maxToolSteps: e.SAGE_MAX_TOOL_STEPS,
    research: { maxQuestions: e.SAGE_RESEARCH_MAX_QUESTIONS, maxPages: e.SAGE_RESEARCH_MAX_PAGES, maxMs: Math.round(e.SAGE_RESEARCH_MAX_MINUTES * 60_000) },
    mcp: {
      configPath: path.resolve(e.SAGE_MCP_CONFIG ?? path.join(e.SAGE_DATA_DIR, "mcp.json")),
      timeoutMs: e.SAGE_MCP_TIMEOUT_MS,
      approvalTimeoutMs: e.SAGE_MCP_APPROVAL_TIMEOUT_MS,
      maxResultChars: e.SAGE_MCP_MAX_RESULT_CHARS,
      clientMetadataUrl: e.SAGE_MCP_CLIENT_METADATA_URL ?? null,
    },
    llm: {
      provider,
      chatModel: e.SAGE_CHAT_MODEL,
      allowedModels,
      geminiApiKey,
      geminiBaseUrl: e.GEMINI_BASE_URL,
      baseUrl: e.SAGE_LLM_BASE_URL,
      apiKey: e.SAGE_LLM_API_KEY,
      vision: e.SAGE_LLM_VISION,
    },
    embedder: { kind: e.SAGE_EMBEDDER, model: e.SAGE_EMBEDDING_MODEL, localModel: e.SAGE_LOCAL_EMBEDDING_MODEL },
    webSearch: {
      kind: e.SAGE_WEB_SEARCH,
      searxngUrl: e.SAGE_SEARXNG_URL,
      tavilyApiKey: e.SAGE_TAVILY_API_KEY,
      braveApiKey: e.SAGE_BRAVE_API_KEY,
    },
    oauth,
  };
}
