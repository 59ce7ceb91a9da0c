// Keeps the connection caps below the process's open-file limit, with room left for the data files, workers,
// outbound requests and the storage clients, so a connection flood is refused by the caps rather than by EMFILE.
import fs from 'node:fs';
import type { ConnectionLimits } from '../../config.js';

/** Descriptors kept free of client connections: SQLite and its WAL, blob files, spools, outbound sockets, pools. */
export const DESCRIPTOR_HEADROOM = 256;

/** The soft limit on open files (Node raises it to the hard limit at start), or null where /proc does not say. */
export function openFileLimit(limitsFile = '/proc/self/limits'): number | null {
  let text: string;
  try {
    text = fs.readFileSync(limitsFile, 'utf8');
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  if (soft === undefined) return null;
  return soft === 'unlimited' ? null : Number(soft);
}

/**
 * The caps as configured when they fit under the limit with the headroom; otherwise the SMTP and HTTP caps (and
 * their per-address and unauthenticated caps, never above them) shrunk in proportion until they do.
 */
export function fitConnectionLimits(limits: ConnectionLimits, openFiles: number | null): { limits: ConnectionLimits; shrunk: boolean } {
  if (openFiles === null) return { limits, shrunk: false };
  const room = Math.max(2, openFiles - DESCRIPTOR_HEADROOM);
  const wanted = limits.smtpMax + limits.httpMax;
  if (wanted <= room) return { limits, shrunk: false };
  const smtpMax = Math.max(1, Math.floor((room * limits.smtpMax) / wanted));
  const httpMax = Math.max(1, room - smtpMax);
  // The unauthenticated shares keep their proportion of the caps they are part of.
  const smtpMaxUnauthenticated = Math.max(1, Math.floor((limits.smtpMaxUnauthenticated * smtpMax) / limits.smtpMax));
  const httpMaxUnauthenticated = Math.max(1, Math.floor((limits.httpMaxUnauthenticated * httpMax) / limits.httpMax));
  const smtpPerAddress = Math.min(limits.smtpPerAddress, smtpMax);
  const httpPerAddress = Math.min(limits.httpPerAddress, httpMax);
  return {
    limits: {
      ...limits,
      smtpMax,
      httpMax,
      smtpPerAddress,
      httpPerAddress,
      smtpMaxUnauthenticated,
      httpMaxUnauthenticated,
      smtpUnauthenticatedPerAddress: Math.min(limits.smtpUnauthenticatedPerAddress, smtpPerAddress, smtpMaxUnauthenticated),
      httpUnauthenticatedPerAddress: Math.min(limits.httpUnauthenticatedPerAddress, httpPerAddress, httpMaxUnauthenticated),
    },
    shrunk: true,
  };
}
