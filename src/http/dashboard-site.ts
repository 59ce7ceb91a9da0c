// Serves the built dashboard (dist/dashboard/) beside the API: hashed assets cached for a year, index.html (with the
// <base href> of the base path inserted, never cached) for every client route, a strict CSP on every answer.
// Requests for the API and the operators' endpoints pass through untouched.
import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { PROJECT_ROOT } from '../project-root.js';

/** Where `npm run build` puts the dashboard. */
export const DASHBOARD_ROOT = path.join(PROJECT_ROOT, 'dist', 'dashboard');

export interface DashboardSiteOptions {
  /** The built dashboard: index.html and assets/. */
  root: string;
  /** SANDBOX_BASE_PATH ('' or '/prefix'): the server strips it before this middleware; only <base href> names it. */
  basePath: string;
}

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the API and the operators, never to the dashboard. */
const NOT_OURS = /^\/(v1|livez|readyz|metrics)(\/|$)/;
const ASSETS = /^\/assets(\/|$)/;
/** Built asset names: letters, digits, dot, dash and underscore (Vite's `name-hash.ext`). */
const ASSET_NAME = /^[A-Za-z0-9._-]+$/;

/** The dashboard's CSP and the headers beside it, for every page and file served on its origin. */
export function dashboardSecurityHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', DASHBOARD_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** index.html with `<base href="<basePath>/">` first in <head>, so relative asset URLs and the API resolve under it. */
export function withBaseHref(html: string, basePath: string): string {
  const tag = `<base href="${escapeAttribute(`${basePath.replace(/\/+$/, '')}/`)}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}\n    ${tag}`) : `${tag}\n${html}`;
}

async function fileStat(file: string): Promise<fs.Stats | null> {
  try {
    const stat = await fs.promises.stat(file);
    return stat.isFile() ? stat : null;
  } catch {
    return null;
  }
}

function notFound(ctx: Context, message: string): void {
  ctx.status = 404;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${message}\n`;
}

export function dashboardSite(options: DashboardSiteOptions): Middleware {
  const root = path.resolve(options.root);
  const assetsDir = path.join(root, 'assets');
  const indexFile = path.join(root, 'index.html');
  let cachedIndex: { mtimeMs: number; html: string } | null = null;

  async function index(): Promise<string | null> {
    const stat = await fileStat(indexFile);
    if (stat === null) return null;
    if (cachedIndex?.mtimeMs !== stat.mtimeMs) {
      cachedIndex = { mtimeMs: stat.mtimeMs, html: withBaseHref(await fs.promises.readFile(indexFile, 'utf8'), options.basePath) };
    }
    return cachedIndex.html;
  }

  return async (ctx: Context, next: Next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || NOT_OURS.test(ctx.path)) return next();
    dashboardSecurityHeaders(ctx);

    if (ASSETS.test(ctx.path)) {
      const name = ctx.path.slice('/assets/'.length);
      const stat = ASSET_NAME.test(name) && name !== '.' && name !== '..' ? await fileStat(path.join(assetsDir, name)) : null;
      if (stat === null) return notFound(ctx, `no dashboard asset ${ctx.path.slice(0, 200)}`);
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.type = path.extname(name);
      ctx.length = stat.size;
      ctx.lastModified = stat.mtime;
      ctx.body = fs.createReadStream(path.join(assetsDir, name));
      return;
    }

    const html = await index();
    ctx.set('Cache-Control', 'no-store');
    if (html === null) return notFound(ctx, 'the dashboard is not built: run `npm run build`');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
}
