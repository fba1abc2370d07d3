import { createHash } from 'node:crypto';

/**
 * The one style of the service's standalone pages (sign-in problems, the development sign-in, "console not
 * built"), inline so a page needs no other request. It is the console's look in small: its colours (light and
 * dark, following the system), a card on a quiet background, buttons and fields of the same size.
 */
const PAGE_STYLE = `:root{color-scheme:light dark;--bg:#f6f7f5;--surface:#fff;--surface-2:#eef1ed;--text:#1b1f1c;\
--muted:#5a635d;--border:#cfd6d0;--accent:#2f6f4e;--accent-text:#fff;--link:#1f5a3c;--focus:#1d5fd1;--bad:#9b1c14;\
--bad-bg:#fbe3e1;--warn:#6b4a00;--warn-bg:#fff1cc}
@media (prefers-color-scheme:dark){:root{--bg:#121513;--surface:#1b1f1c;--surface-2:#252a26;--text:#e8ece9;\
--muted:#a7b0aa;--border:#3a423c;--accent:#5fbf8b;--accent-text:#0d1a12;--link:#5fbf8b;--focus:#8ab4ff;\
--bad:#ffb4ab;--bad-bg:#3d1714;--warn:#f3d27a;--warn-bg:#3a2e0c}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,\
"Helvetica Neue",Arial,sans-serif}
main{max-width:30rem;margin:0 auto;padding:3rem 1rem}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.2rem;margin:0 0 1rem}
.card{background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:1.25rem 1.5rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
a{color:var(--link)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:var(--surface-2);\
padding:0 .2rem;border-radius:4px;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{display:block;width:100%;min-height:2.5rem;padding:.4rem .6rem;font:inherit;color:inherit;\
background:var(--surface);border:1px solid var(--border);border-radius:8px}
input[aria-invalid=true]{border-color:var(--bad);box-shadow:0 0 0 1px var(--bad)}
button{display:inline-flex;align-items:center;min-height:2.5rem;margin:1rem .5rem 0 0;padding:.4rem .9rem;\
font:inherit;color:inherit;background:var(--surface);border:1px solid var(--border);border-radius:8px;cursor:pointer}
button:hover{background:var(--surface-2)}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-text);font-weight:600}
.notice{background:var(--warn-bg);color:var(--text);border:1px solid var(--border);border-left:4px solid var(--warn);\
border-radius:8px;padding:.6rem .9rem;margin:0 0 1rem}
.alert{background:var(--bad-bg);color:var(--bad);border-left:4px solid var(--bad);border-radius:8px;\
padding:.6rem .9rem;font-weight:600}
.small{font-size:.875rem;color:var(--muted)}`;

/**
 * The CSP source that allows that style and nothing else inline (CSP3 hash source): the pages keep working
 * under a policy without 'unsafe-inline'.
 */
export const PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

/** The console's mark, inline: the default policy of HTML answers loads no image. */
const MARK = `<svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" \
fill="#2f6f4e"/><rect x="6" y="16" width="5" height="10" fill="#fff"/><rect x="13.5" y="9" width="5" height="17" \
fill="#fff"/><rect x="21" y="13" width="5" height="13" fill="#fff"/></svg>`;

export function escapeHtml(text: string): string {
  // Most text has nothing to escape: tested first, it is returned as it is (no replace, no new string).
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ENTITIES[c] ?? c) : text;
}

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A standalone HTML page in the console's look: the Statboard mark above a card holding `body` (no external
 * resources, no script, no inline `style` attribute: the classes of the page's style instead — `primary` for
 * the main button, `notice`, `alert`, `small` — which the default policy of HTML answers allows by its hash).
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head>
<body><main><p class="brand">${MARK} Statboard</p><div class="card">
${body}
</div></main></body></html>`;
}
