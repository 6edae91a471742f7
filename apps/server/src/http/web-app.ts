import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app: hashed assets cached for good, everything else revalidated, and any
 * unknown non-API GET answered with index.html so the client router decides (including its 404 card).
 */
export async function registerWebApp(app: FastifyInstance, webDir: string) {
  const indexPath = path.join(webDir, "index.html");
  const hasWebApp = existsSync(indexPath);
  const headers = hasWebApp ? pageHeaders(readFileSync(indexPath, "utf8")) : {};
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Off, or send's own "public, max-age=0" replaces the header set here.
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
        // Documents and the service worker (its script's policy governs what the worker may fetch).
        if (/\.html$|(?:^|[\\/])sw\.js$/.test(filePath)) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?", 1)[0]!; // split always yields at least one piece
    if (pathname.startsWith("/api/") || pathname === "/api" || !["GET", "HEAD"].includes(request.method)) {
      return reply.status(404).send({ error: `Route ${request.method} ${pathname} not found`, code: "not_found" });
    }
    if (!hasWebApp) {
      return reply.status(404).send({ error: "The web app is not built. Run `npm run build`.", code: "not_found" });
    }
    return reply.headers(headers).header("cache-control", "no-cache").sendFile("index.html");
  });
}

/** The hashes of a page's inline scripts (the theme applied before first paint), in CSP's form. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (match) => `'sha256-${createHash("sha256").update(match[1]!, "utf8").digest("base64")}'`,
  );
}

/**
 * The app's pages run only the app's own scripts (the built bundle and the inline theme script, by hash: never an
 * injected one), talk only to their own server, and cannot be framed by another site (clickjacking). Styles
 * allow inline ones: the UI components set style attributes and insert style elements at run time.
 */
export function pageHeaders(indexHtml: string): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(indexHtml).join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { "content-security-policy": policy, "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" };
}
