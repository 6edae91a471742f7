import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isBlockedAddress } from "../../http/safe-fetch.ts";
import { MailConnectionError } from "./mail-connection-error.ts";

/** The web links' rule for private addresses, applied to mail and calendar servers. */
export interface PrivateAddressRule {
  /** SAGE_FETCH_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** host or host:port an operator trusts although it is private (SAGE_ACCOUNT_ALLOW_HOSTS). */
  allowHosts: string[];
}

/**
 * The address to connect to for a server name: the name's first address, unless any address it resolves to is
 * loopback, private, link-local or reserved and the rule does not allow it (a company server may be private, but
 * only the administrator can say so).
 */
export async function resolveAllowedHost(host: string, port: number, rule: PrivateAddressRule): Promise<string> {
  const name = host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  const trusted = rule.allowPrivate || rule.allowHosts.includes(name) || rule.allowHosts.includes(`${name}:${port}`);
  if (isIP(name)) {
    if (!trusted && isBlockedAddress(name)) throw new MailConnectionError("blocked", `${name} is a private address`);
    return name;
  }
  if (!trusted && (name === "localhost" || name.endsWith(".localhost"))) throw new MailConnectionError("blocked", `${name} is a private address`);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(name, { all: true });
  } catch (error) {
    throw new MailConnectionError("dns", (error as Error).message);
  }
  if (addresses.length === 0) throw new MailConnectionError("dns", `${name} has no address`);
  if (!trusted && addresses.some((entry) => isBlockedAddress(entry.address))) throw new MailConnectionError("blocked", `${name} resolves to a private address`);
  return addresses[0]!.address;
}
