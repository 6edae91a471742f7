import net from "node:net";

export interface RawReply {
  /** false when the server said nothing within the wait (the request was never answered). */
  answered: boolean;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over a fresh socket (a malformed form, a body shorter than its Content-Length, a
 * client that goes away) and reads the first reply. Unlike fetch or inject, nothing is fixed up on the way.
 */
export function rawRequest(port: number, bytes: Buffer | string, options: { waitMs?: number; closeAfterWrite?: boolean } = {}): Promise<RawReply> {
  const waitMs = options.waitMs ?? 5000;
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks).toString("utf8")));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      const headerEnd = text.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
      if (headerEnd >= 0 && length !== undefined && Buffer.byteLength(text.slice(headerEnd + 4)) >= Number(length)) finish();
    });
    socket.on("error", () => finish());
    socket.on("close", () => finish());
    socket.write(bytes, () => {
      if (options.closeAfterWrite) socket.destroy();
    });
  });
}

function parseReply(text: string): RawReply {
  const headerEnd = text.indexOf("\r\n\r\n");
  if (!text || headerEnd < 0) return { answered: false, status: 0, headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, headerEnd).split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { answered: true, status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(headerEnd + 4) };
}

/** One multipart part as raw bytes: a text field, or a file part when `filename` is given. */
export function formPart(boundary: string, name: string, content: string | Buffer, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename}"`}`;
  const type = filename === undefined ? "" : "Content-Type: application/octet-stream\r\n";
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
}

/** An HTTP/1.1 POST as bytes; `contentLength` may lie (a body that never arrives in full). */
export function postBytes(path: string, headers: Record<string, string>, body: Buffer, contentLength = body.length): Buffer {
  const head = [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${contentLength}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
}
