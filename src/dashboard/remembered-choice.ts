// A choice that the next page and the next visit start from (the theme, the preview's width and colour scheme, the
// message list's width), kept in localStorage; where storage is switched off it lasts as long as the page.
import { useState } from 'preact/hooks';

/** The choice kept under `key`, or `fallback` when none of `allowed` is kept there. */
export function storedChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return allowed.find((candidate) => candidate === value) ?? fallback;
  } catch {
    return fallback;
  }
}

/** The number kept under `key`, if one is and it lies within [least, most]. */
export function storedNumber(key: string, least: number, most: number): number | null {
  try {
    const value = Number(localStorage.getItem(key) ?? Number.NaN);
    return Number.isFinite(value) && value >= least && value <= most ? value : null;
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; null forgets it. */
export function rememberChoice(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not remembered, but chosen for this page.
  }
}

export function useRememberedChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): [T, (next: T) => void] {
  const [choice, setChoice] = useState<T>(() => storedChoice(key, allowed, fallback));
  const choose = (next: T) => {
    setChoice(next);
    rememberChoice(key, next);
  };
  return [choice, choose];
}
