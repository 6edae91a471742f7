import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny web site on a free loopback port, for research to read (the e2e server runs with SAGE_FETCH_ALLOW_PRIVATE,
 * the test's private-address setting). Each path answers its HTML; any other path is a 404.
 */
export async function startLocalSite(pages: Record<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const page = pages[request.url ?? ""];
    if (page === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An article about electric trucks, long enough for the page reader to take it as the page's text. */
export const TRUCK_SALES_PAGE = `<!doctype html><html><head><title>Electric truck sales 2026</title></head><body><article>
<h1>Electric truck sales 2026</h1>
<p>Registrations of heavy electric trucks in Europe doubled in 2026, to 21,400 vehicles, the association reported.</p>
<p>Fleet buyers named depot charging as the main constraint on orders for the coming year.</p>
</article></body></html>`;
