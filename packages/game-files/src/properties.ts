/**
 * `server.properties` (Java properties format): `level-name`, `enable-rcon`, `rcon.port`, `rcon.password`.
 * @packageDocumentation
 */

function unescapeProperty(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, esc: string) => {
    if (esc.length === 5) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (esc === 't') return '\t';
    if (esc === 'n') return '\n';
    if (esc === 'r') return '\r';
    if (esc === 'f') return '\f';
    return esc;
  });
}

/** Parses Java properties text: `#`/`!` comments, `=`, `:` or whitespace separators, escapes, continuations. */
export function parseProperties(text: string): Map<string, string> {
  const result = new Map<string, string>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? '').replace(/^[ \t\f]+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // A line ending in an odd number of backslashes continues on the next one.
    while (/(?:^|[^\\])(?:\\\\)*\\$/.test(line) && i + 1 < lines.length) {
      line = line.slice(0, -1) + (lines[++i] ?? '').replace(/^[ \t\f]+/, '');
    }
    const sep = /^((?:\\.|[^=:\s\\])*)[ \t\f]*(?:[=:][ \t\f]*|(?=[^ \t\f])|$)/.exec(line);
    const rawKey = sep?.[1] ?? line;
    const rest = line.slice(sep?.[0].length ?? line.length);
    result.set(unescapeProperty(rawKey), unescapeProperty(rest));
  }
  return result;
}
