// A reader of one `WWW-Authenticate` challenge as RFC 9110 §11.6.1 defines it, written from the
// grammar (not from `formatChallenge`), so the tests check the format against the standard.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

export interface Challenge {
  readonly scheme: string;
  readonly params: Record<string, string>;
}

/** `scheme [ 1*SP auth-param *( OWS "," OWS auth-param ) ]`; throws on anything else. */
export function parseChallenge(header: string): Challenge {
  let rest = header;
  const take = (pattern: RegExp): string | undefined => {
    const match = pattern.exec(rest);
    if (!match) return undefined;
    rest = rest.slice(match[0].length);
    return match[0];
  };
  const scheme = take(TOKEN);
  if (scheme === undefined) throw new Error(`no scheme in ${header}`);
  // Entries, not assignments: a parameter may be named `__proto__`.
  const entries: [string, string][] = [];
  const done = () => ({ scheme, params: Object.fromEntries(entries) });
  if (rest === '') return done();
  if (take(/^ +/) === undefined) throw new Error(`no space after the scheme in ${header}`);
  for (;;) {
    const name = take(TOKEN);
    if (name === undefined || take(/^[ \t]*=[ \t]*/) === undefined)
      throw new Error(`bad auth-param at ${rest}`);
    let value = '';
    if (rest.startsWith('"')) {
      let i = 1;
      for (; i < rest.length && rest[i] !== '"'; i++) {
        if (rest[i] === '\\') i++;
        const c = rest.charCodeAt(i);
        if (!(c === 9 || (c >= 0x20 && c <= 0x7e) || (c >= 0x80 && c <= 0xff)))
          throw new Error(`a character a quoted-string cannot hold: ${c}`);
        value += rest[i];
      }
      if (rest[i] !== '"') throw new Error('an unterminated quoted-string');
      rest = rest.slice(i + 1);
    } else {
      const token = take(TOKEN);
      if (token === undefined) throw new Error(`bad value at ${rest}`);
      value = token;
    }
    entries.push([name.toLowerCase(), value]);
    if (rest === '') return done();
    if (take(/^[ \t]*,[ \t]*/) === undefined) throw new Error(`no comma at ${rest}`);
  }
}
