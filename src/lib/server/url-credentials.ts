/**
 * The one rule for credentials in a URL (`scheme://user:password@host`): a URL the service
 * shows, builds a link on or echoes carries none, and a configured URL that carries some is a
 * secret (config.ts `secretValues`). Decided on the parsed URL (WHATWG, as fetch reads it),
 * never on the text, so `\` separators and percent-encoding cannot hide a user name.
 */

/** The user name and password a URL carries, decoded; undefined when it carries none or is not a URL. */
export function urlCredentials(text: string): { username: string; password: string } | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!url.username && !url.password) return undefined;
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return { username: decoded(url.username), password: decoded(url.password) };
}

export function carriesCredentials(text: string): boolean {
  return urlCredentials(text) !== undefined;
}
