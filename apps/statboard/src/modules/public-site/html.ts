import { createHash } from 'node:crypto';
import { escapeHtml } from '#src/http/html-page.ts';
import { contentSecurityPolicy } from '#src/http/html-security.ts';

/**
 * The public site's look: one inline style (allowed by its hash, no 'unsafe-inline'), light and dark following
 * the reader's system setting (an embed may force one with `theme=`), tables that fit 390 px (long names wrap,
 * numbers never do), and visible focus. No script anywhere.
 */
const SITE_STYLE = `:root{color-scheme:light dark;--bg:#f6f7f5;--surface:#fff;--surface-2:#eef1ed;--text:#1b1f1c;\
--muted:#525b55;--border:#cfd6d0;--accent:#2f6f4e;--accent-text:#fff;--link:#1f5a3c;--focus:#1d5fd1}
@media (prefers-color-scheme:dark){:root:not(.light){--bg:#121513;--surface:#1b1f1c;--surface-2:#252a26;\
--text:#e8ece9;--muted:#a7b0aa;--border:#3a423c;--accent:#5fbf8b;--accent-text:#0d1a12;--link:#7fd3a5;--focus:#8ab4ff}}
:root.dark{color-scheme:dark;--bg:#121513;--surface:#1b1f1c;--surface-2:#252a26;--text:#e8ece9;--muted:#a7b0aa;\
--border:#3a423c;--accent:#5fbf8b;--accent-text:#0d1a12;--link:#7fd3a5;--focus:#8ab4ff}
:root.light{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,\
"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
a{color:var(--link)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--surface);padding:.5rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header{background:var(--surface);border-bottom:1px solid var(--border)}
.bar{max-width:64rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1.25rem}
.site{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--text);margin-right:auto}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
main{max-width:64rem;margin:0 auto;padding:1.25rem 1rem 2rem}
h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .5rem}
h2{font-size:1.2rem;margin:0 0 .5rem}
.lead{color:var(--muted);margin:0 0 1rem}
.muted{color:var(--muted)}
.grid{display:grid;gap:1rem;margin:0 0 1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,17rem),1fr))}
.grid>.card{margin:0}
section.card,.card{background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:1rem;margin:0 0 1rem}
table{width:100%;border-collapse:collapse}
caption{text-align:left;font-weight:600;padding:0 0 .25rem}
th,td{text-align:left;padding:.35rem .3rem;border-bottom:1px solid var(--border);vertical-align:top}
td{overflow-wrap:anywhere}
th{font-size:.875rem;color:var(--muted);font-weight:600}
th[scope=rowgroup]{color:var(--text);font-size:.95rem;padding-top:1rem}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;width:1px}td.n{white-space:nowrap}
td.r,th.r{width:2.25rem;white-space:nowrap;font-variant-numeric:tabular-nums}
tr:last-child td{border-bottom:0}
tr:target>*{background:var(--surface-2)}tr:target{scroll-margin-top:1rem}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:0 0 1rem}
label{display:block;font-weight:600;font-size:.9rem;width:100%}
input,select{min-height:2.5rem;padding:.35rem .6rem;font:inherit;color:inherit;background:var(--surface);\
border:1px solid var(--border);border-radius:8px;flex:1 1 12rem;min-width:0}
button{min-height:2.5rem;padding:.35rem 1rem;font:inherit;font-weight:600;background:var(--accent);\
color:var(--accent-text);border:1px solid var(--accent);border-radius:8px;cursor:pointer}
.pager{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0}
.chart{width:100%;max-width:40rem;height:auto;display:block;margin:0 auto}
.chart .line{fill:none;stroke:var(--accent);stroke-width:2.5}
.chart .dot{fill:var(--accent)}
.chart .grid{stroke:var(--border);stroke-width:1}
.chart text{fill:var(--muted);font-size:15px}
ul.plain{list-style:none;margin:0;padding:0}ul.plain li{padding:.25rem 0;border-bottom:1px solid var(--border)}
ul.plain li:last-child{border-bottom:0}
ul.cols{columns:15rem;column-gap:2rem}ul.cols li{break-inside:avoid;border-bottom:0}
footer{max-width:64rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.875rem}
body.embed main{padding:.5rem .75rem}
body.embed h1{font-size:1.05rem;margin:0 0 .25rem}`;

/** The CSP source of that style (CSP3 hash source). */
const SITE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(SITE_STYLE).digest('base64')}'`;

/** The policy of every public page: its style, links and the search form; nothing else loads. */
export function sitePolicy(frameAncestors: string | null = null): string {
  if (frameAncestors === null) return PAGE_POLICY;
  return contentSecurityPolicy({ 'style-src': SITE_STYLE_SOURCE, 'frame-ancestors': frameAncestors });
}

/** The policy of the pages that are not embeds (the same for all: made once). */
const PAGE_POLICY = contentSecurityPolicy({ 'style-src': SITE_STYLE_SOURCE });

/**
 * Text escaped for the public pages' HTML (text and attribute values alike) and written in ASCII: `&`, `<`, `>` and
 * quotes as entities (`escapeHtml`), every character past ASCII as a numeric reference ("Caf&#233;", "12 &#9829;"),
 * which browsers, crawlers and link previews read as the character itself. With their markup ASCII too, the pages
 * are ASCII whatever names and units they show, and `pageBytes` copies them into bytes rather than encoding them.
 */
export function h(text: string): string {
  // Most text has nothing to write otherwise: one test, and it is returned as it is.
  return TO_WRITE.test(text) ? escapeHtml(text).replace(NON_ASCII, numericReference) : text;
}

const TO_WRITE = /[&<>"'\u0080-\uffff]/;
/** A character past ASCII: a pair of surrogates (one code point), or any other code unit. */
const NON_ASCII = /[\ud800-\udbff][\udc00-\udfff]|[^\0-\x7f]/g;

function numericReference(c: string): string {
  return `&#${c.codePointAt(0)};`;
}

/**
 * A page's text as UTF-8 bytes: ASCII (every page whose text went through `h`) copied byte for byte, anything else
 * encoded. Encoding a 12 KB page costs 2–3 times the copy once one character is past ASCII (10–19 µs against 3–5,
 * measured on player pages). A text's UTF-8 length equals its length in UTF-16 code units only when every character
 * is ASCII, where Latin-1 and UTF-8 write the same bytes.
 */
export function pageBytes(html: string): Buffer {
  return Buffer.byteLength(html) === html.length ? Buffer.from(html, 'latin1') : Buffer.from(html);
}

export interface PageHead {
  /** The `<title>` and og:title. */
  title: string;
  /** `<meta name="description">` and og:description. */
  description: string;
  /** The page's address (og:url): PUBLIC_URL + its path. */
  url: string;
}

function head(p: PageHead, htmlClass = ''): string {
  const title = h(p.title);
  const description = h(p.description);
  return `<!doctype html>
<html lang="en"${htmlClass ? ` class="${htmlClass}"` : ''}><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${htmlClass === 'dark' ? 'dark' : htmlClass === 'light' ? 'light' : 'light dark'}">
<title>${title}</title>
<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${h(p.url)}">
<meta name="twitter:card" content="summary">
${STYLE_ELEMENT}`;
}

const STYLE_ELEMENT = `<style>${SITE_STYLE}</style></head>`;

/** The part of a site's pages after `<head>` and before the body, made once per site (see `sitePage`). */
export function siteHeader(site: { title: string; base: string }): string {
  const base = h(site.base);
  return `
<body><a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="site" href="${base}/">${h(site.title)}</a>
<nav aria-label="Site"><ul><li><a href="${base}/">Home</a></li><li><a href="${base}/leaderboards">Leaderboards</a></li><li><a href="${base}/seasons">Seasons</a></li><li><a href="${base}/players">Players</a></li></ul></nav></div></header>
<main id="main">
`;
}

const SITE_FOOTER = `
</main>
<footer>Statistics by Statboard. Values update every few seconds; pages may be up to 30 seconds old.</footer>
</body></html>`;

/**
 * A page of the site: its header (the site's name and navigation), `body` in `<main>`, a footer. `header` is
 * `siteHeader` of the site, which a caller may keep for the site's pages.
 */
export function sitePage(
  p: PageHead,
  site: { title: string; base: string },
  body: string,
  header: string = siteHeader(site),
): string {
  return head(p) + header + body + SITE_FOOTER;
}

/** A compact page for an `<iframe>`: no header, `theme` forces light or dark (else the reader's setting). */
export function embedPage(p: PageHead, theme: 'light' | 'dark' | null, body: string): string {
  return `${head(p, theme ?? '')}
<body class="embed"><main>
${body}
</main></body></html>`;
}

/** The one 404 page: the same bytes whatever was missing (a workspace, a disabled site, a hidden player…). */
export const NOT_FOUND_PAGE = `${head({
  title: 'Page not found',
  description: 'This page does not exist or is not public.',
  url: '',
}).replace(/<meta property="og:url"[^>]*>\n/, '')}
<body><main id="main"><h1>Page not found</h1>
<p>This page does not exist or is not public.</p></main></body></html>`;
