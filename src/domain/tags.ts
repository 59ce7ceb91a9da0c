// Tag names and colours: the naming rule, case-insensitive identity, and the automatic colour.
import { createHash } from 'node:crypto';
import colorString from 'color-string';
import { AppError } from '../errors.js';

export const TAG_MAX_LENGTH = 64;

/**
 * Letters (with their combining marks) and digits of any script, plus space . _ : / @ + # - inside. No quotes,
 * commas or parentheses (they would clash with the q language), no leading - or ! (negation), no surrounding
 * white space.
 */
export const TAG_PATTERN = /^[\p{L}\p{N}_#@](?:[\p{L}\p{M}\p{N} ._:/@+#-]*[\p{L}\p{M}\p{N}._:/@+#-])?$/u;

/**
 * Validates a tag name and returns its identity: lower case, so `Urgent` and `urgent` are one tag. The rule is
 * checked on the lower-case form, the one stored and returned, so every name the server hands out is accepted
 * back (lower-casing can lengthen a name: İ becomes i plus a combining dot).
 */
export function normalizeTag(name: string, field = 'tag'): string {
  const identity = name.toLowerCase();
  if ([...identity].length > TAG_MAX_LENGTH || !TAG_PATTERN.test(identity) || /\s{2}/.test(identity)) {
    throw new AppError('invalid_request', `${field}: '${name}' is not a valid tag name: 1 to ${TAG_MAX_LENGTH} letters, digits, single spaces and . _ : / @ + # -, starting with a letter, digit, _, # or @`);
  }
  return identity;
}

/** Normalises a list of tag names (reporting `field[i]` on error) and drops duplicates, keeping first-seen order. */
export const normalizeTags = (names: string[], field = 'tags'): string[] =>
  [...new Set(names.map((name, i) => normalizeTag(name, `${field}[${i}]`)))];

export const isCssColor = (value: string): boolean => colorString.get(value) !== null;

/** A stable colour from the name, so a tag keeps its colour everywhere without anyone choosing one. */
export function automaticTagColor(name: string): string {
  const hue = createHash('sha256').update(name).digest().readUInt16BE(0) % 360;
  return hslToHex(hue, 0.62, 0.45);
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = chroma * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = lightness - chroma / 2;
  const [r, g, b] = hue < 60 ? [chroma, x, 0] : hue < 120 ? [x, chroma, 0] : hue < 180 ? [0, chroma, x]
    : hue < 240 ? [0, x, chroma] : hue < 300 ? [x, 0, chroma] : [chroma, 0, x];
  return `#${[r, g, b].map((v) => Math.round((v + m) * 255).toString(16).padStart(2, '0')).join('')}`;
}
