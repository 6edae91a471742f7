import type { FastifyInstance } from "fastify";
import { AppError } from "./app-error.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests made from another site (CSRF), on top of SameSite=Lax cookies:
 * the Origin header must name this host, and browsers' Sec-Fetch-Site must not say cross-site.
 */
export function registerOriginCheck(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const fetchSite = request.headers["sec-fetch-site"];
    if (fetchSite === "cross-site") throw refused();
    const origin = request.headers.origin;
    if (!origin) return;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw refused();
    }
    // request.host reads X-Forwarded-Host only when the proxy is trusted (trustProxy); anyone can send the header.
    if (originHost !== request.host) throw refused();
  });
}

const refused = () => new AppError("cross_origin", 403, "Cross-origin request refused");
