// Serves the API reference: openapi.yaml and mailpit-api.yaml rendered by Swagger UI (swagger-ui-dist, read from
// node_modules, no CDN) at /docs/api and /docs/api/mailpit, and the contracts themselves at /openapi.yaml and
// /mailpit-api.yaml with `servers` naming this server, so "Try it out" calls the server that served the page.
// Everything is answered under the dashboard's CSP, unchanged: Swagger UI's BaseLayout needs no inline script or
// style and no eval (its StandaloneLayout would: the top bar's logo is an SVG with an inline <style>).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { isScalar, parseDocument, type YAMLMap } from 'yaml';
import { PROJECT_ROOT } from '../project-root.js';
import { dashboardSecurityHeaders, withBaseHref } from './dashboard-site.js';
import { MAILPIT_API_FILE } from './openapi.js';
import { requestOrigin } from './request-origin.js';

export interface ApiReferenceOptions {
  /** SANDBOX_BASE_PATH ('' or '/prefix'): the server strips it before this middleware; <base href> and `servers` name it. */
  basePath: string;
  /** SANDBOX_PUBLIC_URL with the base path; null: the origin each request was made to. */
  publicBaseUrl: string | null;
}

/** A contract and the page that renders it; paths are below the base path. */
interface Contract {
  path: string;
  page: string;
  title: string;
  /** The document around its top-level `servers`, which each answer fills in with this server's URL. */
  before: string;
  after: string;
}

interface Asset {
  type: string;
  bytes: Buffer;
  /** Its path below the base path, named by a hash of its bytes, so it may be cached for good. */
  path: string;
}

const ASSET_DIR = '/docs/api/assets/';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * Starts Swagger UI on the element the page names, with the contract the page names (resolved against <base href>).
 * A key entered under Authorize lives in the page only (no persistAuthorization), and the URL's query cannot
 * reconfigure the page (queryConfigEnabled is off by default), so a link cannot point it at another contract.
 */
const INIT_SCRIPT = `(() => {
  const root = document.getElementById('api-reference');
  SwaggerUIBundle({
    url: new URL(root.dataset.contract, document.baseURI).href,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
  });
  // Swagger UI's example and response blocks scroll when long; a tab stop lets a keyboard scroll them too.
  new MutationObserver(() => {
    for (const block of root.querySelectorAll('.microlight:not([tabindex])')) block.tabIndex = 0;
  }).observe(root, { childList: true, subtree: true });
})();
`;

/** The header naming both references, in the dashboard's palette. */
const PAGE_STYLES = `body { margin: 0; }
.references { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.75rem 1rem;
  border-bottom: 1px solid #d0d5dd; font-family: system-ui, sans-serif; }
.references .brand { font-weight: 700; color: #1d2939; text-decoration: none; }
.references ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0; padding: 0; list-style: none; }
.references a { color: #1d4ed8; }
.references a[aria-current='page'] { color: #1d2939; font-weight: 600; text-decoration: none; }
`;

function asset(name: string, type: string, bytes: Buffer): Asset {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const extension = path.extname(name);
  return { type, bytes, path: `${ASSET_DIR}${path.basename(name, extension)}-${hash}${extension}` };
}

/** The contract's text split around its top-level `servers` entry, which it must have. */
function loadContract(file: string, page: string, title: string): Contract {
  const text = fs.readFileSync(file, 'utf8');
  const servers = (parseDocument(text).contents as YAMLMap).items.find((pair) => isScalar(pair.key) && pair.key.value === 'servers');
  const start = (servers?.key as { range?: number[] } | undefined)?.range?.[0];
  const end = (servers?.value as { range?: number[] } | null | undefined)?.range?.[2];
  if (start === undefined || end === undefined) throw new Error(`${file} has no top-level servers to point at this server`);
  return { path: `/${path.basename(file)}`, page, title, before: text.slice(0, start), after: text.slice(end) };
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Relative URLs throughout: the <base href> puts them under the base path. */
function pageHtml(contract: Contract, contracts: Contract[], assets: { bundle: Asset; styles: Asset; pageStyles: Asset; init: Asset }): string {
  const link = (target: Contract) => `<li><a href="${target.page.slice(1)}"${target === contract ? ' aria-current="page"' : ''}>${escapeHtml(target.title)}</a></li>`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(contract.title)} reference · mail-sandbox</title>
    <link rel="stylesheet" href="${assets.styles.path.slice(1)}">
    <link rel="stylesheet" href="${assets.pageStyles.path.slice(1)}">
  </head>
  <body>
    <header class="references">
      <a class="brand" href="./">mail-sandbox</a>
      <nav aria-label="API references"><ul>${contracts.map(link).join('')}<li><a href="${contract.path.slice(1)}">${escapeHtml(path.basename(contract.path))}</a></li></ul></nav>
    </header>
    <main id="api-reference" data-contract="${escapeHtml(contract.path.slice(1))}"></main>
    <script src="${assets.bundle.path.slice(1)}"></script>
    <script src="${assets.init.path.slice(1)}"></script>
  </body>
</html>
`;
}

/** The pages, their assets and the contracts as served; made on the first request for any of them (a YAML parse of each contract). */
function referenceSite(options: ApiReferenceOptions) {
  const contracts = [
    loadContract(path.join(PROJECT_ROOT, 'openapi.yaml'), '/docs/api', 'mail-sandbox API'),
    loadContract(MAILPIT_API_FILE, '/docs/api/mailpit', 'Mailpit-compatible API'),
  ];
  const pageAssets = {
    bundle: asset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8', fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'))),
    styles: asset('swagger-ui.css', 'text/css; charset=utf-8', fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui.css'))),
    pageStyles: asset('api-reference.css', 'text/css; charset=utf-8', Buffer.from(PAGE_STYLES)),
    init: asset('api-reference.js', 'text/javascript; charset=utf-8', Buffer.from(INIT_SCRIPT)),
  };
  return {
    // Served by exact path only: no name from the request reaches the file system.
    assets: new Map(Object.values(pageAssets).map((entry) => [entry.path, entry])),
    pages: new Map(contracts.map((contract) => [contract.page, withBaseHref(pageHtml(contract, contracts, pageAssets), options.basePath)])),
    documents: new Map(contracts.map((contract) => [contract.path, contract])),
  };
}

const PAGE_PATHS = new Set(['/docs/api', '/docs/api/mailpit', '/openapi.yaml', '/mailpit-api.yaml']);

export function apiReferenceSite(options: ApiReferenceOptions): Middleware {
  let site: ReturnType<typeof referenceSite> | undefined;

  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (!PAGE_PATHS.has(ctx.path) && !ctx.path.startsWith(ASSET_DIR)) return next();
    site ??= referenceSite(options);
    const { pages, documents, assets } = site;
    const page = pages.get(ctx.path);
    const contract = documents.get(ctx.path);
    const file = assets.get(ctx.path);
    if (page === undefined && contract === undefined && file === undefined && !ctx.path.startsWith(ASSET_DIR)) return next();
    dashboardSecurityHeaders(ctx);
    if (file !== undefined) {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.type = file.type;
      ctx.body = file.bytes;
    } else if (page !== undefined) {
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page;
    } else if (contract !== undefined) {
      const baseUrl = options.publicBaseUrl ?? `${requestOrigin(ctx)}${options.basePath}`;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/yaml; charset=utf-8';
      // A JSON string is a YAML double-quoted scalar.
      ctx.body = `${contract.before}servers:\n  - url: ${JSON.stringify(baseUrl)}\n${contract.after}`;
    } else {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `no API reference asset ${ctx.path.slice(0, 200)}\n`;
    }
  };
}
