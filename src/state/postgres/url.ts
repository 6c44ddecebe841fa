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
