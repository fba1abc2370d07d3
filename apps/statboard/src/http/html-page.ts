import { createHash } from 'node:crypto';

/** The one style of the service's standalone pages, inline so a page needs no other request. */
const PAGE_STYLE = `body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
input,button{font:inherit;padding:.4rem .6rem}code{background:#eee;padding:0 .2rem}.alert{color:#b00}`;

/**
 * The CSP source that allows that style and nothing else inline (CSP3 hash source): the pages keep working
 * under a policy without 'unsafe-inline'.
 */
export const PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * A minimal standalone HTML page (no external resources, no script, no inline `style` attribute: a class of
 * the page's style instead, which the default policy of HTML answers allows by its hash).
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head>
<body>${body}</body></html>`;
}
