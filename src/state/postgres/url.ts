/** A PostgreSQL URL as it may be shown: the password (in the userinfo or a `password=` parameter) masked. */
export function maskPostgresUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can take apart: show only its scheme.
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
    return scheme ? `${scheme}***` : '***';
  }
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString().replace('%2A%2A%2A', '***');
}

/**
 * The URL as the driver is given it: an `sslmode` of `prefer`, `require` or `verify-ca` read as libpq (and psql)
 * reads it — `require` encrypts without checking the certificate, `verify-full` checks it and the host name — as
 * ragwatch documents it (and `state.tls.mode: require` does). pg 8 would take them as `verify-full` and print a
 * ten-line SECURITY WARNING saying so; `uselibpqcompat=true` is its own switch to libpq's meanings.
 */
export function withLibpqSslModes(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const mode = parsed.searchParams.get('sslmode');
  if (!mode || !['prefer', 'require', 'verify-ca'].includes(mode) || parsed.searchParams.has('uselibpqcompat'))
    return url;
  return `${url}&uselibpqcompat=true`;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Removes every occurrence of the URL's password from a text (driver messages can quote a connection string). */
export function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return text;
  }
  return password.length >= 3 ? text.split(password).join('***') : text;
}
