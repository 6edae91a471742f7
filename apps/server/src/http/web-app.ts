import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app: hashed assets cached for good, everything else revalidated, and any
 * unknown non-API GET answered with index.html so the client router decides (including its 404 card).
 */
export async function registerWebApp(app: FastifyInstance, webDir: string) {
  const hasWebApp = existsSync(path.join(webDir, "index.html"));
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
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?", 1)[0];
    if (pathname.startsWith("/api/") || pathname === "/api" || !["GET", "HEAD"].includes(request.method)) {
      return reply.status(404).send({ error: `Route ${request.method} ${pathname} not found`, code: "not_found" });
    }
    if (!hasWebApp) {
      return reply.status(404).send({ error: "The web app is not built. Run `npm run build`.", code: "not_found" });
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
