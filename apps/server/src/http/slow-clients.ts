import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { isMultipartRequest } from "./multipart-form.ts";

export interface SlowClientLimits {
  /** A JSON (or any non-upload) body must arrive whole within this time. */
  bodyMs: number;
  /** An upload may take as long as it needs while its bytes keep coming; this long without a byte ends it. */
  uploadIdleMs: number;
  /** Connections one client address may hold open at once; more are closed as they arrive. */
  connectionsPerClient: number;
}

const TIMEOUT_BODY = JSON.stringify({ error: "The request took too long to arrive", code: "request_timeout" });

/**
 * Answers 408 on the socket itself and closes it, as Node does for its own request timeout: the route is still
 * waiting for a body that will not come, so Fastify's reply cannot be used.
 */
function timeOut(socket: Socket) {
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\nConnection: close\r\n\r\n${TIMEOUT_BODY}`,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Slow clients cannot hold the server: a body that stops arriving is answered 408 (a JSON body within `bodyMs` in
 * all, an upload after `uploadIdleMs` without a byte), and one address holds at most `connectionsPerClient`
 * connections. Progress is read from the socket's byte count, so the body stream is left untouched for its parser.
 */
export function registerSlowClientLimits(app: FastifyInstance, limits: SlowClientLimits) {
  const open = new Map<string, number>();
  app.server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.connectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });

  app.addHook("onRequest", (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket as Socket | null;
    const hasBody = raw.headers["content-length"] !== undefined ? raw.headers["content-length"] !== "0" : raw.headers["transfer-encoding"] !== undefined;
    if (!socket || !hasBody || raw.complete) return done();
    const upload = isMultipartRequest(request);
    const started = Date.now();
    let seen = socket.bytesRead;
    const check = () => {
      if (raw.complete || socket.destroyed) return;
      const now = Date.now();
      if (!upload) {
        if (now - started >= limits.bodyMs) return timeOut(socket);
        timer = setTimeout(check, limits.bodyMs - (now - started));
      } else {
        if (socket.bytesRead === seen) return timeOut(socket);
        seen = socket.bytesRead;
        timer = setTimeout(check, limits.uploadIdleMs);
      }
      timer.unref();
    };
    let timer = setTimeout(check, upload ? limits.uploadIdleMs : limits.bodyMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once("end", stop);
    raw.once("close", stop);
    reply.raw.once("finish", stop); // answered without reading the body (a 401): the socket may serve the next request
    done();
  });
}
