/**
 * One token of a NATS subject or key-value key made of any text (server names, channel ids and
 * process names hold dots, colons and spaces, which subjects and keys do not allow): `v` and the
 * text in base64url, or `n` when there is none. The same text always gives the same token, so
 * processes agree on subjects and keys without talking.
 *
 * @example
 * natsToken('127.0.0.1:8088'); // 'vMTI3LjAuMC4xOjgwODg'
 */
export function natsToken(text: string | undefined): string {
  return text === undefined ? 'n' : `v${Buffer.from(text, 'utf8').toString('base64url')}`;
}

/** The text a {@link natsToken} was made from (undefined for `n` or a token not made that way). */
export function fromNatsToken(token: string): string | undefined {
  if (!token.startsWith('v')) return undefined;
  return Buffer.from(token.slice(1), 'base64url').toString('utf8');
}
