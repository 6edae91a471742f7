import type { SecretBox } from "../../store/secret-box.ts";

/** An access token for one audience, and when it stops working (epoch ms, by the module's clock). */
export interface AccessTokenEntry {
  token: string;
  expiresAt: number;
  scope: string | null;
}

/**
 * What a grant keeps sealed (decision 070): the refresh token, and the access tokens by audience ("*" when one token
 * serves them all). Never in the clear, never in a response, a log or a backup.
 */
export interface GrantTokens {
  refreshToken: string | null;
  access: Record<string, AccessTokenEntry>;
}

export const ANY_AUDIENCE = "*";

export const sealTokens = (box: SecretBox, tokens: GrantTokens) => box.seal(JSON.stringify(tokens));

/** The grant's tokens, or null when they cannot be opened (another key: a new sign-in is needed). */
export function openTokens(box: SecretBox, sealed: string | null): GrantTokens | null {
  if (!sealed) return null;
  const plain = box.open(sealed);
  return plain === null ? null : (JSON.parse(plain) as GrantTokens);
}
