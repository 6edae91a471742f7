import { isIP } from "node:net";
import { DEFAULT_DEMO_PASSWORD, type Config } from "./config.ts";

/** Where the server listens, as `server.address()` reports it. */
export interface ListenAddress {
  address: string;
  port: number;
}

/** An address a browser on this machine can open: a wildcard bind is reached through the loopback address. */
function openableUrl({ address, port }: ListenAddress): string {
  const host = address === "0.0.0.0" || address === "::" ? "127.0.0.1" : address;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * The one plain line printed at start-up, for the person who ran `npm start`: the address to open and, while
 * the demonstration account still has the published default password, how to log in.
 */
export function startupLine(config: Pick<Config, "demoUser">, listening: ListenAddress): string {
  const url = openableUrl(listening);
  if (config.demoUser.password !== DEFAULT_DEMO_PASSWORD) return `SAGE is running at ${url}`;
  return `SAGE is running at ${url} - log in as ${config.demoUser.username} / ${DEFAULT_DEMO_PASSWORD} (the default demonstration password; set SAGE_PASSWORD to choose your own)`;
}
